// Reference kernel of softmax along one axis: exp(x - max) / sum(exp(x - max)),
// in float64 with one rounding at the store. Subtracting the row maximum keeps
// exp() from overflowing. A NaN in a row makes the whole row NaN (through the
// sum), and so do a +Infinity and a row of only -Infinity (Inf - Inf), as in
// the spec's emulation.
#include <cmath>

#include "ops/reference/ref_util.h"
#include "ops/softmax.h"

namespace webnn::ops::ref {

void RunSoftmax(const KernelContext& ctx) {
  const uint32_t axis = AttrsAs<SoftmaxAttrs>(ctx.attrs).axis;
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint32_t>& shape = in.shape;
  uint64_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const uint64_t length = shape[axis];

  std::vector<double> exps(length);
  for (uint64_t o = 0; o < outer; ++o) {
    for (uint64_t i = 0; i < inner; ++i) {
      const uint64_t base = o * length * inner + i;
      double max = -INFINITY;
      for (uint64_t k = 0; k < length; ++k) max = std::fmax(max, Load<double>(in, base + k * inner));
      double sum = 0;
      for (uint64_t k = 0; k < length; ++k) {
        exps[k] = std::exp(Load<double>(in, base + k * inner) - max);
        sum += exps[k];
      }
      for (uint64_t k = 0; k < length; ++k) Store<double>(out, base + k * inner, exps[k] / sum);
    }
  }
}

}  // namespace webnn::ops::ref
