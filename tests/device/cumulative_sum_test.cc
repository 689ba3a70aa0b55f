// The device's kernels of the cumulative_sum family against the reference device.
//
// WPT's tolerance for cumulativeSum is 3 ULP (float32 and float16); the cpu
// kernel accumulates in float64 in the reference's order, so it is checked at
// that tolerance on inputs (cancellations, NaN/Inf) where float32 accumulation
// would be far off.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

const MLOperandDataType kTypes[] = {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16,
                                    MLOperandDataType::kInt32,   MLOperandDataType::kUint32,
                                    MLOperandDataType::kInt64,   MLOperandDataType::kUint64};

InputSpec Spec(MLOperandDataType type, std::vector<uint32_t> shape, double special = 0.02) {
  // Integers: the type's extremes among the specials make sums wrap.
  return InputSpec{type, std::move(shape), -1000, 1000, special};
}

void CheckCumulativeSum(MLOperandDataType type, const std::vector<uint32_t>& shape, uint32_t axis, bool exclusive,
                        bool reversed, uint64_t seed, double special = 0.02) {
  CheckAgainstReference(DeviceUnderTest(), "cumulativeSum", {Spec(type, shape, special)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLCumulativeSumOptions options;
                          options.exclusive = exclusive;
                          options.reversed = reversed;
                          return MLNamedOperands{{"out", g.cumulativeSum(in[0], axis, options)}};
                        },
                        Tolerance::Ulp(3), seed);
}

}  // namespace

TEST_CASE("cumulativeSum matches reference on random shapes, axes, options and types",
          "[device][cumulative_sum]") {
  std::mt19937_64 rng(161);
  for (MLOperandDataType type : kTypes) {
    for (int trial = 0; trial < 32; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      CheckCumulativeSum(type, shape, axis, trial & 1, trial & 2, rng());
    }
  }
}

TEST_CASE("cumulativeSum: each loop shape, every option, large tensors", "[device][cumulative_sum]") {
  std::mt19937_64 rng(162);
  for (MLOperandDataType type : kTypes) {
    for (int options = 0; options < 4; ++options) {
      const bool exclusive = options & 1, reversed = options & 2;
      CheckCumulativeSum(type, {1}, 0, exclusive, reversed, rng());
      CheckCumulativeSum(type, {37, 300}, 1, exclusive, reversed, rng());       // innermost: transposed groups
      CheckCumulativeSum(type, {3, 1000}, 1, exclusive, reversed, rng());       // innermost, few lines: scalar
      CheckCumulativeSum(type, {50, 3, 37}, 1, exclusive, reversed, rng());     // rows of 37
      CheckCumulativeSum(type, {50, 3, 3}, 1, exclusive, reversed, rng());      // narrow rows: scalar lines
      CheckCumulativeSum(type, {64, 129, 33}, 1, exclusive, reversed, rng());   // threads, rows
      CheckCumulativeSum(type, {2000, 131}, 1, exclusive, reversed, rng());     // threads, transposed
      CheckCumulativeSum(type, {700, 2050}, 0, exclusive, reversed, rng());     // threads, column chunks
    }
  }
}

TEST_CASE("cumulativeSum float: cancellation and specials stay within 3 ULP of float64 accumulation",
          "[device][cumulative_sum]") {
  std::mt19937_64 rng(163);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    // Large values (3e38, 65504) among small ones: float32 partial sums would lose the small ones.
    CheckCumulativeSum(type, {16, 257}, 1, false, false, rng(), 0.2);
    CheckCumulativeSum(type, {257, 16}, 0, true, true, rng(), 0.2);
    CheckCumulativeSum(type, {5, 16, 9}, 1, false, true, rng(), 0.2);
  }
}
