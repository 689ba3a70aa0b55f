// Reference kernels of equal, notEqual, greater, greaterOrEqual, lesser,
// lesserOrEqual: uint8 0/1 outputs.
//
// Both operands are compared exactly in their compute domain (float16/float32
// widen to double without loss, integers to 64 bits). IEEE comparisons give
// the spec's NaN behaviour: every comparison with a NaN is false except
// notEqual, so greaterOrEqual is NOT logicalNot(lesser) and vice versa.
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

template <typename T>
bool Compare(OpKind op, T a, T b) {
  switch (op) {
    case OpKind::equal: return a == b;
    case OpKind::notEqual: return a != b;
    case OpKind::greater: return a > b;
    case OpKind::greaterOrEqual: return a >= b;
    case OpKind::lesser: return a < b;
    case OpKind::lesserOrEqual: return a <= b;
    default: throw std::logic_error("not a comparison op");
  }
}

}  // namespace

void RunComparison(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView& out = ctx.outputs[0];
  const auto a_strides = BroadcastStrides(a.shape, out.shape);
  const auto b_strides = BroadcastStrides(b.shape, out.shape);
  VisitDomain(a.type, [&]<typename T>() {
    uint64_t i = 0;
    ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
      const T x = Load<T>(a, Offset(idx, a_strides));
      const T y = Load<T>(b, Offset(idx, b_strides));
      Store<uint64_t>(out, i++, Compare<T>(ctx.op, x, y) ? 1 : 0);
    });
  });
}

}  // namespace webnn::ops::ref
