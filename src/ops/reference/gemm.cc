// Reference kernel of gemm: alpha * A' * B' + beta * C with optional transposes
// and C broadcast to [M, N]. alpha and beta are first cast to the operand data
// type (the spec's "cast" of MLNumber), then everything is float64 and each
// output element is rounded once.
#include "ops/gemm.h"
#include "ops/number_cast.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunGemm(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<GemmAttrs>(ctx.attrs);
  const TensorView& a = ctx.inputs[0];
  const TensorView& b = ctx.inputs[1];
  const TensorView* c = OptionalInput(ctx.inputs, 2);
  const TensorView& out = ctx.outputs[0];
  const uint64_t m = out.shape[0];
  const uint64_t n = out.shape[1];
  const uint64_t k = attrs.aTranspose ? a.shape[0] : a.shape[1];
  const double alpha = CastMLNumber(MLNumber(attrs.alpha), out.type).f;
  const double beta = CastMLNumber(MLNumber(attrs.beta), out.type).f;

  std::vector<uint64_t> c_strides;
  if (c != nullptr) c_strides = BroadcastStrides(c->shape, out.shape);

  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double sum = -0.0;  // the identity of IEEE addition: keeps a sum of -0 terms -0
      for (uint64_t p = 0; p < k; ++p) {
        const double x = Load<double>(a, attrs.aTranspose ? p * m + i : i * k + p);
        const double y = Load<double>(b, attrs.bTranspose ? j * k + p : p * n + j);
        sum += x * y;
      }
      double result = alpha * sum;
      if (c != nullptr) result += beta * Load<double>(*c, Offset({i, j}, c_strides));
      Store<double>(out, i * n + j, result);
    }
  }
}

}  // namespace webnn::ops::ref
