// The device abstraction. A device owns memory (buffers with explicit upload and
// download, never raw host pointers handed to users), tells which operators and
// data types it runs, and compiles a Program (a topologically ordered list of
// steps over values) into something it can run many times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/parallel.h"
#include "core/shape.h"
#include "memory/ledger.h"
#include "ops/op_kind.h"
#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::memory {
class ConstantBytes;
}

namespace webnn::ops {

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t size) : size_(size) {}
  virtual ~DeviceBuffer() = default;
  size_t size() const { return size_; }
  // Host-visible memory (reference and cpu devices); null on the gpu, and
  // for a constant whose bytes were released (ReleasedConstantBuffer).
  virtual std::byte* host_data() { return nullptr; }
  // A hint that nothing will read this constant's bytes soon (a device has
  // packed them): views of a mapped weights file drop their resident pages.
  virtual void ReleaseResidentPages() {}

 private:
  size_t size_;
};

// Stands for a constant whose bytes a compiled program no longer reads (it
// holds a packed copy): the bytes are gone, only the size remains.
class ReleasedConstantBuffer final : public DeviceBuffer {
 public:
  explicit ReleasedConstantBuffer(size_t size) : DeviceBuffer(size) {}
};

// One value of a Program: a graph input, output, constant or intermediate.
struct ProgramValue {
  enum class Kind { kInput, kOutput, kConstant, kIntermediate };
  Kind kind = Kind::kIntermediate;
  OperandDesc desc;  // dynamic dims at their upper bounds
};

struct ProgramStep {
  OpKind op;
  std::string label;
  std::shared_ptr<const OpAttrs> attrs;
  std::vector<int32_t> inputs;   // value ids in schema order; -1 = absent optional operand
  std::vector<int32_t> outputs;  // value ids
};

struct Program {
  std::vector<ProgramValue> values;
  std::vector<ProgramStep> steps;
};

// Where a value lives during one run, and its concrete shape.
struct ValueBinding {
  DeviceBuffer* buffer = nullptr;
  size_t offset = 0;
  std::vector<uint32_t> shape;
  // A graph output's float64 values before their final rounding, written by
  // the reference device's kernels (TensorView::unrounded); usually null.
  double* unrounded = nullptr;
};

class DeviceProgram {
 public:
  virtual ~DeviceProgram() = default;
  // `values` is indexed like Program::values; every value is bound. A
  // non-empty `step_ms` (one per step) receives each step's time in
  // milliseconds: wall time on the host devices, timestamp queries on the
  // gpu (whose steps then run one after another, each behind a barrier).
  virtual void Run(std::span<const ValueBinding> values, core::ParallelFor& parallel, std::span<double> step_ms) = 0;
  // Whether runs read constant value `value`'s buffer. False where the program
  // packed the constant at compile time and reads only the packed copy: the
  // caller may then drop the buffer (scheduler::Executable).
  virtual bool ReadsConstant(size_t /*value*/) const { return true; }
  // A constant that had no buffer at Compile (a weightless constant) has one
  // now, in `constants` (indexed as at Compile): the program prepares what
  // reads it (packs it) before this returns, or throws and stays as it was.
  // Run may be called once every constant has a buffer.
  virtual void BindConstant(size_t /*value*/, std::span<const std::shared_ptr<DeviceBuffer>> /*constants*/) {}
};

// What a device's kernels can run in fused form (Device::Fusions).
struct DeviceFusions {
  // A bias, an activation and its post affine map in the epilogue of conv2d,
  // convTranspose2d, gemm and matmul (FusedActivation, a bias input on gemm
  // and matmul).
  bool epilogues = false;
  // fusedElementwise nodes of at most this many inputs and steps (0: none).
  uint32_t elementwise_max_inputs = 0;
  uint32_t elementwise_max_steps = 0;
  // fusedElementwise operands read upsampled (FusedElementwiseAttrs::upsample):
  // a nearest-neighbour resample2d by whole factors feeding a chain.
  bool elementwise_upsampled = false;
  // quantizedMatmul nodes (matmul / gemm of a constant blockwise-dequantized
  // int4/uint4/int8/uint8 weight; src/ops/quantized_matmul.h).
  bool quantized_matmul = false;
  // attention nodes (scaled dot-product attention; src/ops/attention.h).
  bool attention = false;
  // fusedNormalization nodes (RMSNorm / layerNorm written out, with a
  // residual add before them; src/ops/fused_normalization.h).
  bool normalization = false;
  // rotaryEmbedding nodes (RoPE written out; src/ops/rotary_embedding.h).
  bool rotary_embedding = false;
  bool any() const {
    return epilogues || elementwise_max_inputs > 0 || quantized_matmul || attention || normalization ||
           rotary_embedding;
  }
  // Every fused form, fusedElementwise chains unbounded.
  static constexpr DeviceFusions All() {
    return {.epilogues = true,
            .elementwise_max_inputs = UINT32_MAX,
            .elementwise_max_steps = UINT32_MAX,
            .elementwise_upsampled = true,
            .quantized_matmul = true,
            .attention = true,
            .normalization = true,
            .rotary_embedding = true};
  }
};

// Where a device's float arithmetic departs from the reference's IEEE
// float32 in ways WPT's tolerances allow: the test suite compares with these
// in mind, and `webnn info` and the docs say so.
struct FloatBehaviour {
  // float32 denormals kept as inputs and results. False: they may be
  // flushed. An NVIDIA GPU's Vulkan driver offers no mode that keeps them and
  // flushes them in some arithmetic, not in all (an H100 kept conv2d's
  // subnormal filter values in its products, 2026-11-28).
  bool float32_denormals = true;
  // conv2d's float32 filter values that are subnormal take part as such (the
  // cpu device packs them as zeros: on an Intel Xeon a conv whose weights are
  // all subnormal ran 100x slower, an FMA that reads one taking a microcode
  // assist; PP-OCR rec's SE convs have 22% of them). Their products are below
  // float32 resolution next to any normal term unless inputs are ~1e30.
  // False on a device without float32_denormals means they may be read
  // either way.
  bool float32_denormal_filters = true;
  // The float types whose matmul and gemm give -0 for a sum of -0 products,
  // as the reference's dot product does (it starts at -0.0). The cpu kernels
  // start at +0; so do tensor cores.
  DataTypeSet negative_zero_sums{MLOperandDataType::kFloat32, MLOperandDataType::kFloat16};
};

class Device {
 public:
  virtual ~Device() = default;
  virtual MLDeviceType type() const = 0;
  virtual std::string_view name() const = 0;
  virtual std::string description() const = 0;
  virtual bool accelerated() const = 0;
  // The fused forms this device's kernels implement: the graph passes
  // (src/graph/passes.h) create only these for it, and none at all for a
  // device that implements none (the reference device runs graphs as built).
  virtual DeviceFusions Fusions() const { return {}; }
  // True once the device has failed for good (a gpu's VK_ERROR_DEVICE_LOST):
  // every later call fails, and new contexts get a new device.
  virtual bool lost() const { return false; }
  // Features and limits worth printing (`webnn info`); empty when none.
  virtual std::string features() const { return ""; }
  virtual FloatBehaviour float_behaviour() const { return {}; }

  // Data types this device runs for one operand slot of `op` (a subset of the
  // schema's allowed types; empty if it does not run `op`).
  virtual DataTypeSet SupportedTypes(OpKind op, bool is_output, size_t slot) const = 0;

  // Zero-filled memory charged to `account` (its ledger, this device's place,
  // its category) for as long as the buffer lives; QuotaExceededError naming
  // `bytes` and `what` they are for when a limit or the device refuses them.
  virtual std::shared_ptr<DeviceBuffer> Allocate(size_t bytes, std::string_view what,
                                                 const memory::Account& account) = 0;
  virtual void Upload(DeviceBuffer& buffer, size_t offset, std::span<const std::byte> data) = 0;
  // `parallel`: the threads a large download may use (memory::CopyOut).
  virtual void Download(DeviceBuffer& buffer, size_t offset, std::span<std::byte> data,
                        core::ParallelFor& parallel) = 0;
  // A buffer holding `data` for read-only use (constants). Host devices share
  // the bytes instead of copying them (SharesConstantBytes(); the bytes are
  // charged where they were made); the others charge their copy to `ledger`
  // as constants (raw).
  virtual std::shared_ptr<DeviceBuffer> ConstantBuffer(std::shared_ptr<const memory::ConstantBytes> data,
                                                       const std::shared_ptr<memory::Ledger>& ledger);
  virtual bool SharesConstantBytes() const { return false; }
  // Its buffers are host memory (host_data()): another host-memory device
  // reads and writes them in place, without a copy.
  virtual bool HostMemory() const { return false; }

  // `constants` holds, for each constant value of `program`, its buffer (others
  // null; a constant without bytes yet is null too and bound later with
  // DeviceProgram::BindConstant). What the program keeps (packed weights, scratch, parameters) is
  // charged to `ledger` for as long as it lives.
  virtual std::unique_ptr<DeviceProgram> Compile(const Program& program,
                                                 std::span<const std::shared_ptr<DeviceBuffer>> constants,
                                                 const std::shared_ptr<memory::Ledger>& ledger) = 0;
};

// Devices available in this build and on this machine, in preference order
// (gpu, cpu, reference). Created once.
std::vector<std::shared_ptr<Device>> AvailableDevices();
std::shared_ptr<Device> FindDevice(MLDeviceType type);
// Why a device type is not available ("" when it is), e.g. "no Vulkan loader".
std::string WhyUnavailable(MLDeviceType type);

}  // namespace webnn::ops
