// gpu kernel of gather, gatherElements and gatherND: shaders/gather.comp.
#include "core/strings.h"
#include "ops/gather.h"
#include "ops/gpu/strided_copy.h"

namespace webnn::ops::gpu {


uint32_t IndexKind(DataType type) {
  switch (type) {
    case DataType::kInt32: return 0;
    case DataType::kUint32: return 1;
    case DataType::kInt64: return 2;
    default:
      throw NotSupportedError(core::StrCat("gpu device: indices of type ", ToString(type), " are not supported"));
  }
}

namespace {

uint64_t Product(const std::vector<uint32_t>& shape, size_t begin, size_t end) {
  uint64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

GpuPlan Plan(const GpuStepInfo& s) {
  const GpuOperand& in = s.inputs[0];
  const GpuOperand& indices = s.inputs[1];
  const GpuOperand& out = s.outputs[0];
  const uint32_t axis = AttrsAs<GatherAttrs>(s.attrs).axis;
  GpuDispatch d;
  d.shader = core::StrCat("gather.b", ElementBits(in.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Input(1), GpuBinding::Output(0)};
  const uint32_t n = Count32(out.elements());
  const std::vector<int64_t> strides = ContiguousStrides(in.shape);
  switch (s.op) {
    case OpKind::gather:
      d.params = {n, 0, IndexKind(indices.type), in.shape[axis], Count32(indices.elements()),
                  Count32(Product(in.shape, axis + 1, in.shape.size()))};
      break;
    case OpKind::gatherElements:
      d.params = {n, 1, IndexKind(indices.type), static_cast<uint32_t>(indices.shape.size())};
      d.params.resize(22, 0);
      for (size_t i = 0; i < indices.shape.size(); ++i) {
        d.params[4 + i] = indices.shape[i];
        d.params[12 + i] = static_cast<uint32_t>(strides[i]);
      }
      d.params[20] = axis;
      d.params[21] = in.shape[axis];
      break;
    default: {  // gatherND
      const uint32_t k = indices.shape.back();
      d.params = {n, 2, IndexKind(indices.type), k, Count32(Product(in.shape, k, in.shape.size()))};
      d.params.resize(21, 0);
      for (uint32_t j = 0; j < k; ++j) {
        d.params[5 + j] = in.shape[j];
        d.params[13 + j] = static_cast<uint32_t>(strides[j]);
      }
      break;
    }
  }
  d.groups = GridFor(n);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_gather() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
