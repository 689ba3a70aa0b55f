// Reference kernels of argMin and argMax.
//
// Ties give the first (lowest) index, as WPT expects. A NaN counts as more
// extreme than any number, so the first NaN's index is returned, consistent
// with reduceMax/reduceMin propagating NaN (numpy's argmax does the same).
// Values are compared in their compute domain, so int64/uint64 compare exactly.
#include <cmath>

#include "ops/arg_min_max.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunArgMinMax(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<ArgMinMaxAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const bool is_max = ctx.op == OpKind::argMax;
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint32_t axis_size = input.shape[attrs.axis];
  const uint64_t axis_stride = strides[attrs.axis];
  // Iterate the input with the reduced axis pinned to 0: one index per output element.
  std::vector<uint32_t> outer_shape = input.shape;
  outer_shape[attrs.axis] = 1;

  VisitDomain(input.type, [&]<typename T>() {
    uint64_t o = 0;
    ForEachIndex(outer_shape, [&](const std::vector<uint32_t>& idx) {
      const uint64_t base = Offset(idx, strides);
      uint32_t best_index = 0;
      T best = Load<T>(input, base);
      for (uint32_t k = 1; k < axis_size; ++k) {
        if constexpr (std::is_same_v<T, double>) {
          if (std::isnan(best)) break;
        }
        const T x = Load<T>(input, base + k * axis_stride);
        bool better = is_max ? x > best : x < best;
        if constexpr (std::is_same_v<T, double>) better = better || std::isnan(x);
        if (better) {
          best = x;
          best_index = k;
        }
      }
      Store<int64_t>(out, o++, best_index);
    });
  });
}

}  // namespace webnn::ops::ref
