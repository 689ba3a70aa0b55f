// Reference kernel of resample2d, with the spec's half-pixel coordinate mapping
// for each of the two resampled axes:
//   inputCoordinate = clamp((outputCoordinate + 0.5) * inputSize / outputSize - 0.5, 0, inputSize - 1)
// The scale is always outputSize / inputSize of the actual sizes, also when the
// output size came from `scales` (WPT's pending half-pixel cases expect that).
// The coordinate is kept as the exact fraction num / den, with
//   num = (2 * outputCoordinate + 1) * inputSize - outputSize,  den = 2 * outputSize,
// so nearest-neighbor's ceil(inputCoordinate - 0.5) is exact (ties pick the
// smaller index) and linear weights are exact fractions.
//
// Linear on floats: the spec's formula in float64, one rounding at the store.
// Linear on int8/uint8: the exact rational result rounded to nearest, ties to
// even (the spec does not say how to round; this is the float stores' rule).
#include "ops/resample2d.h"

#include <cmath>

#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

__extension__ typedef __int128 Int128;

// floor(a / b) for b > 0.
Int128 FloorDiv(Int128 a, Int128 b) {
  Int128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}

// Where output coordinate `o` of one resampled axis reads from.
struct Source {
  uint32_t lo, hi;  // floor and ceil of the input coordinate (nearest: both the chosen index)
  uint64_t frac;    // input coordinate - lo, as frac / den
  uint64_t den;
};

Source MapCoordinate(uint32_t o, uint32_t in_size, uint32_t out_size, bool nearest) {
  const Int128 den = Int128(2) * out_size;
  Int128 num = (Int128(2) * o + 1) * in_size - out_size;
  if (num < 0) num = 0;
  if (num > Int128(in_size - 1) * den) num = Int128(in_size - 1) * den;
  if (nearest) {
    // ceil(num / den - 1/2) = -floor((den - 2 num) / (2 den))
    const auto index = static_cast<uint32_t>(-FloorDiv(den - 2 * num, 2 * den));
    return {index, index, 0, static_cast<uint64_t>(den)};
  }
  const auto lo = static_cast<uint32_t>(num / den);
  const auto frac = static_cast<uint64_t>(num - Int128(lo) * den);
  return {lo, frac == 0 ? lo : lo + 1, frac, static_cast<uint64_t>(den)};
}

// The integer nearest to a / b (b > 0), ties to even.
int64_t RoundDivToEven(Int128 a, Int128 b) {
  Int128 q = FloorDiv(a, b);
  const Int128 twice_remainder = 2 * (a - q * b);
  if (twice_remainder > b || (twice_remainder == b && (q & 1) != 0)) ++q;
  return static_cast<int64_t>(q);
}

}  // namespace

void RunResample2d(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<Resample2dAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const bool nearest = attrs.mode == MLInterpolationMode::kNearestNeighbor;
  const uint32_t axis_y = attrs.axes[0];
  const uint32_t axis_x = attrs.axes[1];

  std::vector<Source> map_y, map_x;
  for (uint32_t o = 0; o < out.shape[axis_y]; ++o)
    map_y.push_back(MapCoordinate(o, input.shape[axis_y], out.shape[axis_y], nearest));
  for (uint32_t o = 0; o < out.shape[axis_x]; ++o)
    map_x.push_back(MapCoordinate(o, input.shape[axis_x], out.shape[axis_x], nearest));

  const std::vector<uint64_t> in_strides = Strides(input.shape);
  VisitDomain(out.type, [&]<typename T>() {
    uint64_t i = 0;
    ForEachIndex(out.shape, [&](const std::vector<uint32_t>& index) {
      const Source& sy = map_y[index[axis_y]];
      const Source& sx = map_x[index[axis_x]];
      // Offset of the input element at (y, x) on the resampled axes, index elsewhere.
      const uint64_t base = Offset(index, in_strides) - uint64_t{index[axis_y]} * in_strides[axis_y] -
                            uint64_t{index[axis_x]} * in_strides[axis_x];
      auto at = [&](uint32_t y, uint32_t x) {
        return Load<T>(input, base + uint64_t{y} * in_strides[axis_y] + uint64_t{x} * in_strides[axis_x]);
      };
      if (nearest) {
        Store<T>(out, i++, at(sy.lo, sx.lo));
        return;
      }
      const T v00 = at(sy.lo, sx.lo), v01 = at(sy.lo, sx.hi);
      const T v10 = at(sy.hi, sx.lo), v11 = at(sy.hi, sx.hi);
      if constexpr (std::is_same_v<T, double>) {
        const double tx = static_cast<double>(sx.frac) / static_cast<double>(sx.den);
        const double ty = static_cast<double>(sy.frac) / static_cast<double>(sy.den);
        const double vy0 = v00 * (1 - tx) + v01 * tx;
        const double vy1 = v10 * (1 - tx) + v11 * tx;
        Store<double>(out, i++, vy0 * (1 - ty) + vy1 * ty);
      } else {
        const Int128 fx = sx.frac, gx = sx.den - sx.frac;
        const Int128 fy = sy.frac, gy = sy.den - sy.frac;
        const Int128 sum =
            Int128(v00) * gx * gy + Int128(v01) * fx * gy + Int128(v10) * gx * fy + Int128(v11) * fx * fy;
        Store<T>(out, i++, static_cast<T>(RoundDivToEven(sum, Int128(sx.den) * sy.den)));
      }
    });
  });
}

}  // namespace webnn::ops::ref
