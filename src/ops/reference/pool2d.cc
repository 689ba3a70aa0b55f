// Reference kernels of averagePool2d, l2Pool2d and maxPool2d.
//
// A window element on the padding is not an element: it is left out of the
// max, the sum and the average's count (WPT's averagePool2d padding cases
// divide by the number of real elements). With "ceil" rounding, or padding as
// large as the window, a window can hold no element at all; its result is 0
// for all three operations: WPT expects 0 for such a maxPool2d window (the
// WebNN baseline leaves those outputs at their initial 0), and one value for
// every empty window keeps the three consistent.
//
// Floats: float64 sums, one rounding at the store; a NaN in a max window makes
// the result NaN (as the max operator). maxPool2d on integers is exact.
#include "ops/pool2d.h"

#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunPool2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Pool2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const Pool2dGeometry g = ComputePool2dGeometry(attrs, input.shape, out.shape);
  const bool nhwc = attrs.layout == MLInputOperandLayout::kNhwc;
  auto input_offset = [&](uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
    return nhwc ? ((n * g.in_h + y) * g.in_w + x) * g.channels + c : ((n * g.channels + c) * g.in_h + y) * g.in_w + x;
  };
  auto output_offset = [&](uint64_t n, uint64_t c, uint64_t y, uint64_t x) {
    return nhwc ? ((n * g.out_h + y) * g.out_w + x) * g.channels + c
                : ((n * g.channels + c) * g.out_h + y) * g.out_w + x;
  };
  // Calls f(input offset) for every window element of output (n, c, oy, ox) that is not padding.
  auto for_each_in_window = [&](uint64_t n, uint64_t c, uint32_t oy, uint32_t ox, auto&& f) {
    for (uint32_t ky = 0; ky < g.window_h; ++ky) {
      const int64_t y = int64_t{oy} * g.stride_h + int64_t{ky} * g.dilation_h - g.pad_top;
      if (y < 0 || y >= g.in_h) continue;
      for (uint32_t kx = 0; kx < g.window_w; ++kx) {
        const int64_t x = int64_t{ox} * g.stride_w + int64_t{kx} * g.dilation_w - g.pad_left;
        if (x < 0 || x >= g.in_w) continue;
        f(input_offset(n, c, y, x));
      }
    }
  };

  VisitDomain(out.type, [&]<typename T>() {
    for (uint64_t n = 0; n < g.batch; ++n) {
      for (uint64_t c = 0; c < g.channels; ++c) {
        for (uint32_t oy = 0; oy < g.out_h; ++oy) {
          for (uint32_t ox = 0; ox < g.out_w; ++ox) {
            const uint64_t o = output_offset(n, c, oy, ox);
            if (ctx.op == OpKind::maxPool2d) {
              T result{};
              bool empty = true;
              for_each_in_window(n, c, oy, ox, [&](uint64_t i) {
                const T v = Load<T>(input, i);
                if constexpr (std::is_same_v<T, double>) {
                  // Once NaN, the result stays NaN: nothing compares greater.
                  if (std::isnan(v)) result = v;
                }
                if (empty || v > result) result = v;
                empty = false;
              });
              Store<T>(out, o, result);
            } else if constexpr (std::is_same_v<T, double>) {
              double sum = 0.0;
              uint64_t count = 0;
              const bool l2 = ctx.op == OpKind::l2Pool2d;
              for_each_in_window(n, c, oy, ox, [&](uint64_t i) {
                const double v = Load<double>(input, i);
                sum += l2 ? v * v : v;
                ++count;
              });
              if (count == 0) Store<double>(out, o, 0.0);
              else Store<double>(out, o, l2 ? std::sqrt(sum) : sum / static_cast<double>(count));
            } else {
              throw std::logic_error("averagePool2d/l2Pool2d: integer input passed validation");
            }
          }
        }
      }
    }
  });
}

}  // namespace webnn::ops::ref
