// What a gpu kernel is: a function that, for one step of a program with
// concrete shapes, plans the compute dispatches that run it. It knows nothing
// about Vulkan objects: it names shaders (by their embedded SPIR-V name,
// e.g. "elementwise_binary.f32"), says which of the step's operands each shader
// binding sees, and writes the shader's parameters (shapes, strides, attributes)
// as 32-bit words. The device records the plan into a command buffer
// (gpu_device.cc), inserting barriers between dependent dispatches.
//
// Shader conventions (src/ops/gpu/shaders/common.glsl):
//   binding 0      params: words 0..7 are the element offsets of bindings
//                  1..8 (filled by the device), the kernel's words follow (P(i))
//   binding 1..8   the operand buffers in the order of GpuDispatch::bindings
//   local size     256 unless the kernel says otherwise in the shader
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data_type.h"
#include "ops/op_kind.h"
#include "ops/schema.h"

namespace webnn::ops::gpu {

inline constexpr uint32_t kMaxBindings = 8;
inline constexpr uint32_t kParamHeaderWords = 8;  // element offsets of bindings 1..8

// One operand of a step at its concrete shape. `present` is false for an
// optional operand that was not given.
struct GpuOperand {
  DataType type = DataType::kFloat32;
  std::vector<uint32_t> shape;
  bool present = true;
  uint64_t elements() const;
};

// Where a shader binding points: one of the step's inputs or outputs, or a
// scratch buffer of the step (GpuPlan::scratch_bytes).
struct GpuBinding {
  enum class Kind : uint8_t { kInput, kOutput, kScratch };
  Kind kind;
  uint32_t index;
  // Elements [first, first + count) of the operand (count 0: all of it). A
  // binding spans at most GpuStepInfo::max_binding_bytes, so kernels split
  // tensors larger than that into several dispatches over sub-ranges.
  uint64_t first = 0;
  uint64_t count = 0;
  static GpuBinding Input(uint32_t i) { return {Kind::kInput, i}; }
  static GpuBinding Output(uint32_t i) { return {Kind::kOutput, i}; }
  static GpuBinding Scratch(uint32_t i) { return {Kind::kScratch, i}; }
  GpuBinding Range(uint64_t first_element, uint64_t element_count) const {
    GpuBinding b = *this;
    b.first = first_element;
    b.count = element_count;
    return b;
  }
};

struct GpuDispatch {
  std::string shader;                 // embedded SPIR-V name
  std::vector<GpuBinding> bindings;   // shader bindings 1, 2, ...
  std::vector<uint32_t> params;       // P(0), P(1), ...
  // Specialization constants (constant_id 0, 1, ...): values fixed when the
  // pipeline is created, so the compiler folds what depends on them (an op
  // code selecting one case of a switch, a tile size). One pipeline per
  // distinct list; keep them to values with few distinct settings.
  std::vector<uint32_t> constants;
  std::array<uint32_t, 3> groups{1, 1, 1};
};

struct GpuPlan {
  std::vector<GpuDispatch> dispatches;  // run in order (the device adds barriers)
  std::vector<uint64_t> scratch_bytes;  // device memory the dispatches share, per scratch slot
};

struct GpuStepInfo {
  OpKind op;
  const OpAttrs& attrs;
  std::span<const GpuOperand> inputs;   // schema order
  std::span<const GpuOperand> outputs;
  // The device's maxStorageBufferRange (128 MiB on lavapipe, 4 GiB on most GPUs).
  uint64_t max_binding_bytes = UINT32_MAX;
  // A CPU implementation (lavapipe): few, large workgroups suit it; a GPU
  // needs hundreds to fill its multiprocessors.
  bool cpu_implementation = false;
  // 16x16x16 float16 cooperative matrices with float32 accumulators
  // (VK_NV_cooperative_matrix): matmul_coopmat.comp can run.
  bool coopmat_f16 = false;

  // Whether optional input `i` was given.
  bool has_input(size_t i) const { return i < inputs.size() && inputs[i].present; }
  // Input `i`, or input 0 in place of an absent optional one: every binding
  // must point at a buffer, and the shader's flag word says to ignore it.
  GpuBinding InputOrFirst(size_t i) const { return GpuBinding::Input(has_input(i) ? static_cast<uint32_t>(i) : 0u); }
};

// A tensor viewed as [outer, length, inner] around `axis`, with one row per
// (outer, inner) pair, and how a row-wise shader (softmax, argMin/argMax) walks
// it: a workgroup per row when the row is long enough to keep 256 threads busy
// and contiguous (inner == 1), or when too few rows would fill the device one
// thread per row; otherwise a thread per row, so that with inner > 1
// neighbouring threads read neighbouring elements.
struct AxisRows {
  uint32_t rows = 0, length = 0, inner = 0;
  bool workgroup_per_row = false;
  std::array<uint32_t, 3> groups{1, 1, 1};
};
AxisRows RowsAroundAxis(const std::vector<uint32_t>& shape, uint32_t axis);

// Plans one step. Throws NotSupportedError for what the kernel does not cover
// (the message names op, data type and what is missing).
using GpuKernelFn = GpuPlan (*)(const GpuStepInfo& step);

// The kernel of a family for the gpu device and the data types it covers.
// `types(op, is_output, slot)` narrows the schema's types; the device narrows
// further by its features (float16, int8, int64).
struct GpuKernelEntry {
  GpuKernelFn plan = nullptr;
  DataTypeSet (*types)(OpKind op, bool is_output, size_t slot) = nullptr;
};

// Registered kernels, one per family that has one: every family with a file
// src/ops/gpu/<family>.cc, which defines GpuKernel_<family>() (meson.build
// lists them; gpu_kernels.cc maps op_list.inc's families to them).
GpuKernelEntry FindGpuKernel(OpKind op);

// ---- helpers for kernels -------------------------------------------------------

// "f32", "f16", "i32", "u32", "i64", "u64", "i8", "u8", "i4", "u4": the suffix of
// shader variants compiled per data type.
std::string_view TypeSuffix(DataType type);

// Workgroup counts for `n` invocations of `local` threads each, as a grid that
// shaders walk with a grid-stride loop (x capped at 65535 groups).
std::array<uint32_t, 3> GridFor(uint64_t n, uint32_t local = 256);

// Appends the rank, then the shape padded to kMaxRank words (shaders read
// them as `rank, dims[8]`).
void PushShape(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape);
// Appends kMaxRank element strides of `shape` broadcast to `out_shape`
// (numpy rules: aligned at the last dimension; stride 0 where broadcast).
void PushBroadcastStrides(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape,
                          const std::vector<uint32_t>& out_shape);
// A word for an element count, checked to fit 32 bits (tensors are at most
// 2 GiB, so element counts of byte-sized and larger types always fit).
uint32_t Count32(uint64_t n);

// A one-to-one element-wise dispatch (every binding indexed by the same element
// index i < params[0] = n) as one dispatch, or as several over sub-ranges when
// the widest operand (`element_bytes` per element) exceeds what one binding may
// span: each gets its own n, ranges and grid.
GpuPlan SplitElementwise(const GpuDispatch& d, uint64_t n, uint64_t element_bytes, uint64_t max_binding_bytes);

// Low and high words of a 64-bit value, for parameters that do not fit 32 bits.
void PushU64(std::vector<uint32_t>& params, uint64_t v);
// float bits as a word (attributes like alpha).
uint32_t FloatBits(float f);

}  // namespace webnn::ops::gpu
