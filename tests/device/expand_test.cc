// The device's kernels of the expand family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckExpand(MLOperandDataType type, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& new_shape,
                 uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "expand", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          std::vector<MLDimension> dims(new_shape.begin(), new_shape.end());
                          return MLNamedOperands{{"out", g.expand(in[0], dims)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("expand matches reference on random broadcasts and types", "[device][expand]") {
  std::mt19937_64 rng(61);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 6);
      const std::vector<uint32_t> out = RandomShape(rng, rank, trial % 3 == 0 ? 30 : 9);
      std::vector<uint32_t> in = out;
      for (auto& d : in)
        if (rng() % 2) d = 1;
      while (!in.empty() && rng() % 3 == 0) in.erase(in.begin());
      CheckExpand(type, in, out, rng());
    }
  }
}

TEST_CASE("expand: scalar, row and column broadcasts, large outputs", "[device][expand]") {
  std::mt19937_64 rng(62);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckExpand(type, {}, {7, 5}, rng());
    CheckExpand(type, {1}, {1}, rng());
    CheckExpand(type, {37}, {9, 37}, rng());      // row repeated
    CheckExpand(type, {9, 1}, {9, 37}, rng());    // element filled along rows
    CheckExpand(type, {3, 1, 5}, {3, 4, 5}, rng());
    CheckExpand(type, {1, 1, 1}, {300, 17, 41}, rng());  // threads, fills
    CheckExpand(type, {257, 1}, {257, 1000}, rng());     // threads, fills
    CheckExpand(type, {1000}, {3, 257, 1000}, rng());    // threads, row copies
    CheckExpand(type, {1, 1, 64}, {3, 500, 64}, rng());  // replicated rows, pieces over threads
    CheckExpand(type, {5, 1, 3}, {5, 4000, 3}, rng());
  }
}
