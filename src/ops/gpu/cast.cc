// gpu kernel of cast: shaders/cast.comp, one variant per (input, output) type
// pair; a cast to the same type copies the bytes (NaN payloads survive), as
// the reference does.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& out = s.outputs[0];
  const uint64_t n = out.elements();
  GpuDispatch d;
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  if (in.type == out.type) {
    const bool packed = in.type == DataType::kInt4 || in.type == DataType::kUint4;
    // Packed types copy whole bytes (the last one's unused nibble too).
    const uint32_t units = Count32(packed ? ByteLengthFor(in.type, n) : n);
    d.shader = core::StrCat("elementwise_unary_copy.", packed ? 8 : ByteLengthFor(in.type, 1) * 8);
    d.params = {units};
    d.groups = GridFor(units);
    return {{d}, {}};
  }
  const uint32_t count = Count32(n);
  d.shader = core::StrCat("cast.", TypeSuffix(in.type), "_", TypeSuffix(out.type));
  d.params = {count};
  const bool packed_out = out.type == DataType::kInt4 || out.type == DataType::kUint4;
  d.groups = GridFor(packed_out ? (uint64_t{count} + 1) / 2 : count);  // packed: an invocation a byte
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_cast() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
