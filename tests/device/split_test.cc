// The device's kernels of the split family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckSplit(MLOperandDataType type, const std::vector<uint32_t>& shape, const MLSplits& splits, uint32_t axis,
                uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "split", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLSplitOptions options;
                          options.axis = axis;
                          const std::vector<MLOperand> parts = g.split(in[0], splits, options);
                          MLNamedOperands outs;
                          for (size_t k = 0; k < parts.size(); ++k) outs["out" + std::to_string(k)] = parts[k];
                          return outs;
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("split matches reference on random shapes, splits, axes and types", "[device][split]") {
  std::mt19937_64 rng(121);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 5);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 30 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      // Random sizes summing to the axis.
      std::vector<uint32_t> sizes;
      for (uint32_t left = shape[axis]; left > 0;) {
        const uint32_t s = static_cast<uint32_t>(1 + rng() % left);
        sizes.push_back(s);
        left -= s;
      }
      CheckSplit(type, shape, sizes, axis, rng());
    }
  }
}

TEST_CASE("split: equal parts, innermost axis, large tensors", "[device][split]") {
  std::mt19937_64 rng(122);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckSplit(type, {1}, 1u, 0, rng());
    CheckSplit(type, {6, 9}, 3u, 1, rng());
    CheckSplit(type, {500, 129}, std::vector<uint32_t>{300, 200}, 0, rng());         // threads: long blocks
    CheckSplit(type, {1, 96, 56, 56}, std::vector<uint32_t>{64, 32}, 1, rng());      // threads: per output
    CheckSplit(type, {4000, 17}, std::vector<uint32_t>{7, 9, 1}, 1, rng());          // threads: input rows
  }
}
