// A program compiled for its devices: split into segments of consecutive
// steps placed on one device (scheduler/placement.h), each with its
// constants, its intermediate values in one arena (memory::PlanArena) and
// its device program; and the copies between device memories where a
// segment reads or writes a value that lives elsewhere. Runs are serialized
// because runs share the arenas.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/parallel.h"
#include "memory/ledger.h"
#include "ops/device.h"
#include "scheduler/placement.h"

namespace webnn::scheduler {

class Executable {
 public:
  // `constants[d][v]`: the buffer of constant value v on placement device d,
  // for each device that has a step reading it (others null; null too for a
  // weightless constant, bound later with BindConstant). Plans each
  // segment's arena from its values' lifetimes at their maximum shapes. The
  // arenas, the buffers of values crossing devices and what the device
  // programs keep are charged to `ledger`. The device programs are compiled
  // here: every step whose constants are all present is prepared (weights
  // packed), and the buffers of constants it packed and no longer reads are
  // dropped (constant_released).
  Executable(Placement placement, ops::Program program,
             std::vector<std::vector<std::shared_ptr<ops::DeviceBuffer>>> constants,
             std::shared_ptr<memory::Ledger> ledger);

  // Binds inputs/outputs (`external[v]` for those values, buffers of the
  // context's device), concrete shapes for every value, and runs the program.
  // With `profile`, each step's time is kept (last_profile()). `unrounded`
  // (per value, or empty) goes to the outputs' ops::ValueBinding::unrounded.
  void Run(const std::vector<ops::DeviceBuffer*>& external, const std::vector<std::vector<uint32_t>>& shapes,
           core::ParallelFor& parallel, bool profile = false, const std::vector<double*>& unrounded = {});

  // The last profiled run: per step of program() its time in milliseconds
  // (NaN where its device could not time it) and every value's shape. Empty
  // before one.
  struct Profile {
    std::vector<double> step_ms;
    std::vector<std::vector<uint32_t>> shapes;
  };
  Profile last_profile() const;
  // How long the last Run took (0 before the first): what the next run of
  // the same graph is expected to take (a dispatch's scheduler::Job hint).
  std::chrono::nanoseconds last_run_time() const {
    return std::chrono::nanoseconds(last_run_ns_.load(std::memory_order_relaxed));
  }

  const ops::Program& program() const { return program_; }
  // The context's device (placement device 0).
  ops::Device& device() const { return *placement_.devices[0]; }
  const Placement& placement() const { return placement_; }
  uint64_t arena_bytes() const;
  // The bytes of every intermediate value at its maximum shape: what the
  // arenas would hold without sharing.
  uint64_t intermediate_bytes() const { return intermediate_bytes_; }
  size_t intermediate_count() const { return intermediate_count_; }
  // Copies between device memories per run, and their bytes at the maximum shapes.
  size_t transfer_count() const { return transfer_count_; }
  uint64_t transfer_bytes() const { return transfer_bytes_; }
  // Gives a weightless constant its buffer, on the context's device (once):
  // the steps reading it are prepared now, and its buffer dropped if they
  // packed it (webnn#901: a streamed weight's raw bytes leave before the
  // next one arrives). On an error (over the memory limit, ...) the constant
  // stays without data.
  void BindConstant(int32_t value, std::shared_ptr<ops::DeviceBuffer> buffer);
  // Whether constant value `value`'s buffers were all dropped after compilation.
  bool constant_released(size_t value) const;

 private:
  // A value a segment reads or writes that lives in another device's memory:
  // copied into `local` before the segment runs (inputs), or from it after
  // (outputs).
  struct Copy {
    int32_t value;  // whole-program value id
    std::shared_ptr<ops::DeviceBuffer> local;
  };
  struct Segment {
    uint32_t device = 0;                      // index into placement_.devices
    ops::Program program;                     // its own value ids
    std::vector<size_t> steps;                // its step -> the whole program's
    std::vector<int32_t> whole;               // its value id -> the whole program's
    std::map<int32_t, int32_t> local_id;      // whole value id -> its value id
    std::vector<std::shared_ptr<ops::DeviceBuffer>> constants;  // per value id
    std::vector<bool> released;                                 // per value id
    std::shared_ptr<ops::DeviceBuffer> arena;
    std::vector<uint64_t> arena_offsets;      // per value id; intermediates only
    std::vector<Copy> copy_in, copy_out;
    std::map<int32_t, ops::DeviceBuffer*> local_buffer;  // whole value id -> its copy on this device
    std::unique_ptr<ops::DeviceProgram> device_program;
  };

  void CheckStepOrder() const;
  void BuildSegments(std::vector<std::vector<std::shared_ptr<ops::DeviceBuffer>>>& constants);
  void ReleaseUnreadConstants();
  void Transfer(ops::Device& from_device, ops::DeviceBuffer& from, ops::Device& to_device, ops::DeviceBuffer& to,
                uint64_t bytes, core::ParallelFor& parallel);

  Placement placement_;
  ops::Program program_;
  std::shared_ptr<memory::Ledger> ledger_;
  std::vector<Segment> segments_;
  // Intermediate values read by a segment other than their producer's: a
  // buffer of their own on the producer's device.
  std::map<int32_t, std::shared_ptr<ops::DeviceBuffer>> crossing_;
  // Which device's memory holds each value (0 for inputs and outputs).
  std::vector<uint32_t> home_;
  size_t unbound_constants_ = 0;  // constants without a buffer yet: Run refuses to run
  uint64_t intermediate_bytes_ = 0;
  size_t intermediate_count_ = 0;
  size_t transfer_count_ = 0;
  uint64_t transfer_bytes_ = 0;
  mutable std::mutex run_mutex_;
  Profile profile_;  // under run_mutex_
  std::atomic<int64_t> last_run_ns_{0};
};

}  // namespace webnn::scheduler
