// The device's kernels of the triangular family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckTriangular(MLOperandDataType type, const std::vector<uint32_t>& shape, bool upper, int32_t diagonal,
                     uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "triangular", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLTriangularOptions options;
                          options.upper = upper;
                          options.diagonal = diagonal;
                          return MLNamedOperands{{"out", g.triangular(in[0], options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("triangular matches reference on random shapes, diagonals and types", "[device][triangular]") {
  std::mt19937_64 rng(151);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(2 + rng() % 3);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const int32_t diagonal = static_cast<int32_t>(rng() % 15) - 7;
      CheckTriangular(type, shape, trial % 2 == 0, diagonal, rng());
    }
  }
}

TEST_CASE("triangular: diagonals beyond the matrix, large tensors", "[device][triangular]") {
  std::mt19937_64 rng(152);
  for (MLOperandDataType type : kAllDataTypes) {
    for (bool upper : {true, false}) {
      CheckTriangular(type, {1, 1}, upper, 0, rng());
      CheckTriangular(type, {3, 4}, upper, 100, rng());
      CheckTriangular(type, {3, 4}, upper, -100, rng());
      CheckTriangular(type, {4, 300, 301}, upper, 3, rng());  // threads
    }
  }
}
