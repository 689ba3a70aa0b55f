// A program compiled for one device, with its constants uploaded and its
// intermediate values placed in one arena (memory::PlanArena). Runs are
// serialized because runs share the arena.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/parallel.h"
#include "memory/ledger.h"
#include "ops/device.h"

namespace webnn::scheduler {

class Executable {
 public:
  // `constants[v]` is the buffer of constant value v (null for other values,
  // and for weightless constants bound later with BindConstant).
  // Plans the arena from the program's value lifetimes at their maximum shapes.
  // The arena and what the device program keeps are charged to `ledger`.
  // The device program is compiled here: every step whose constants are all
  // present is prepared (weights packed), and the buffers of constants it
  // packed and no longer reads are dropped (constant_released).
  Executable(std::shared_ptr<ops::Device> device, ops::Program program,
             std::vector<std::shared_ptr<ops::DeviceBuffer>> constants, std::shared_ptr<memory::Ledger> ledger);

  // Binds inputs/outputs (`external[v]` for those values), concrete shapes for
  // every value, and runs the program.
  void Run(const std::vector<ops::DeviceBuffer*>& external, const std::vector<std::vector<uint32_t>>& shapes,
           core::ParallelFor& parallel);

  const ops::Program& program() const { return program_; }
  ops::Device& device() const { return *device_; }
  uint64_t arena_bytes() const { return arena_ ? arena_->size() : 0; }
  // The bytes of every intermediate value at its maximum shape: what the
  // arena would hold without sharing.
  uint64_t intermediate_bytes() const { return intermediate_bytes_; }
  size_t intermediate_count() const { return intermediate_count_; }
  // Gives a weightless constant its buffer (once): the steps reading it are
  // prepared now, and its buffer dropped if they packed it (webnn#901: a
  // streamed weight's raw bytes leave before the next one arrives). On an
  // error (over the memory limit, ...) the constant stays without data.
  void BindConstant(int32_t value, std::shared_ptr<ops::DeviceBuffer> buffer);
  // Whether constant value `value`'s buffer was dropped after compilation.
  bool constant_released(size_t value) const { return released_.at(value); }

 private:
  std::shared_ptr<ops::Device> device_;
  ops::Program program_;
  std::vector<std::shared_ptr<ops::DeviceBuffer>> constants_;
  std::shared_ptr<memory::Ledger> ledger_;
  std::vector<bool> released_;  // per value
  size_t unbound_constants_ = 0;  // constants without a buffer yet: Run refuses to run
  std::shared_ptr<ops::DeviceBuffer> arena_;
  uint64_t intermediate_bytes_ = 0;
  size_t intermediate_count_ = 0;
  std::vector<uint64_t> arena_offsets_;  // per value; intermediates only
  std::unique_ptr<ops::DeviceProgram> device_program_;
  std::mutex run_mutex_;

  void ReleaseUnreadConstants();
};

}  // namespace webnn::scheduler
