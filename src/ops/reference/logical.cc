// Reference kernels of logicalNot, logicalAnd, logicalOr, logicalXor, isNaN,
// isInfinite: uint8 0/1 outputs. Logical inputs treat any non-zero byte as true.
#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

bool LogicalBinary(OpKind op, bool a, bool b) {
  switch (op) {
    case OpKind::logicalAnd: return a && b;
    case OpKind::logicalOr: return a || b;
    case OpKind::logicalXor: return a != b;
    default: throw std::logic_error("not a binary logical op");
  }
}

}  // namespace

void RunLogical(const KernelContext& ctx) {
  const TensorView& a = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const uint64_t n = out.elements();
  switch (ctx.op) {
    case OpKind::logicalNot:
      for (uint64_t i = 0; i < n; ++i) Store<uint64_t>(out, i, Load<uint64_t>(a, i) == 0 ? 1 : 0);
      return;
    case OpKind::isNaN:
      for (uint64_t i = 0; i < n; ++i) Store<uint64_t>(out, i, std::isnan(Load<double>(a, i)) ? 1 : 0);
      return;
    case OpKind::isInfinite:
      for (uint64_t i = 0; i < n; ++i) Store<uint64_t>(out, i, std::isinf(Load<double>(a, i)) ? 1 : 0);
      return;
    default: break;
  }
  const TensorView& b = ctx.inputs[1];
  const auto a_strides = BroadcastStrides(a.shape, out.shape);
  const auto b_strides = BroadcastStrides(b.shape, out.shape);
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    const bool x = Load<uint64_t>(a, Offset(idx, a_strides)) != 0;
    const bool y = Load<uint64_t>(b, Offset(idx, b_strides)) != 0;
    Store<uint64_t>(out, i++, LogicalBinary(ctx.op, x, y) ? 1 : 0);
  });
}

}  // namespace webnn::ops::ref
