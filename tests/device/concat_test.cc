// The device's kernels of the concat family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckConcat(MLOperandDataType type, const std::vector<std::vector<uint32_t>>& shapes, uint32_t axis,
                 uint64_t seed) {
  std::vector<InputSpec> specs;
  for (const auto& s : shapes) specs.push_back(MixedSpec(type, s));
  CheckAgainstReference(DeviceUnderTest(), "concat", specs,
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.concat(in, axis)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("concat matches reference on random shapes, axes and types", "[device][concat]") {
  std::mt19937_64 rng(111);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 5);
      const std::vector<uint32_t> base = RandomShape(rng, rank, trial % 3 == 0 ? 30 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      std::vector<std::vector<uint32_t>> shapes;
      const size_t count = 1 + rng() % 4;
      for (size_t k = 0; k < count; ++k) {
        std::vector<uint32_t> s = base;
        s[axis] = static_cast<uint32_t>(1 + rng() % 7);
        shapes.push_back(s);
      }
      CheckConcat(type, shapes, axis, rng());
    }
  }
}

TEST_CASE("concat: axis 0, innermost axis, many inputs, large tensors", "[device][concat]") {
  std::mt19937_64 rng(112);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckConcat(type, {{1}, {1}}, 0, rng());
    CheckConcat(type, {{3, 1}, {3, 2}, {3, 1}, {3, 3}, {3, 1}, {3, 5}}, 1, rng());
    CheckConcat(type, {{300, 129}, {200, 129}}, 0, rng());            // threads: long blocks split
    CheckConcat(type, {{1, 64, 56, 56}, {1, 32, 56, 56}}, 1, rng());  // threads: blocks per input
    CheckConcat(type, {{4000, 7}, {4000, 9}, {4000, 1}}, 1, rng());   // threads: output rows
  }
}
