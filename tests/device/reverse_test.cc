// The device's kernels of the reverse family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckReverse(MLOperandDataType type, const std::vector<uint32_t>& shape, std::optional<std::vector<uint32_t>> axes,
                  uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "reverse", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLReverseOptions options;
                          options.axes = axes;
                          return MLNamedOperands{{"out", g.reverse(in[0], options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("reverse matches reference on random shapes, axes and types", "[device][reverse]") {
  std::mt19937_64 rng(81);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 6);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 70 : 9);
      std::vector<uint32_t> axes;
      for (uint32_t d = 0; d < rank; ++d)
        if (rng() % 2) axes.push_back(d);
      CheckReverse(type, shape, trial % 4 == 0 ? std::nullopt : std::optional(axes), rng());
    }
  }
}

TEST_CASE("reverse: innermost axis with vector tails, outer axes, large tensors", "[device][reverse]") {
  std::mt19937_64 rng(82);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckReverse(type, {1}, std::nullopt, rng());
    CheckReverse(type, {131}, std::nullopt, rng());
    CheckReverse(type, {3, 67}, std::vector<uint32_t>{1}, rng());
    CheckReverse(type, {67, 3}, std::vector<uint32_t>{0}, rng());
    CheckReverse(type, {}, std::nullopt, rng());
    CheckReverse(type, {4, 300, 257}, std::vector<uint32_t>{2}, rng());     // threads, lane reversal
    CheckReverse(type, {4, 300, 257}, std::vector<uint32_t>{0, 1}, rng());  // threads, row copies
    CheckReverse(type, {1, 400000}, std::nullopt, rng());                   // one long row in pieces
  }
}
