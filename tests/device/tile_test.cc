// The device's kernels of the tile family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckTile(MLOperandDataType type, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& reps,
               uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "tile", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          return MLNamedOperands{{"out", g.tile(in[0], reps)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("tile matches reference on random shapes, repetitions and types", "[device][tile]") {
  std::mt19937_64 rng(71);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 5);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, 9);
      std::vector<uint32_t> reps;
      for (uint32_t d = 0; d < rank; ++d) reps.push_back(static_cast<uint32_t>(1 + rng() % 4));
      CheckTile(type, shape, reps, rng());
    }
  }
}

TEST_CASE("tile: single elements, innermost repetition, replicated short rows, large outputs", "[device][tile]") {
  std::mt19937_64 rng(72);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckTile(type, {1}, {1}, rng());
    CheckTile(type, {1}, {37}, rng());
    CheckTile(type, {3}, {11}, rng());
    CheckTile(type, {2, 3}, {1, 5}, rng());
    CheckTile(type, {2, 1, 3}, {3, 7, 2}, rng());
    CheckTile(type, {64, 129}, {9, 5}, rng());  // threads
    CheckTile(type, {5}, {20000}, rng());         // one short row replicated, pieces over threads
    CheckTile(type, {2, 7}, {1, 9000}, rng());
  }
}
