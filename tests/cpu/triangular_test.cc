// cpu kernels of the triangular family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

const MLOperandDataType kAllTypes[] = {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16,
                                       MLOperandDataType::kInt32,   MLOperandDataType::kUint32,
                                       MLOperandDataType::kInt64,   MLOperandDataType::kUint64,
                                       MLOperandDataType::kInt8,    MLOperandDataType::kUint8};

// Random values with NaN/Inf/-0 (floats) or the type's extremes (integers) mixed in.
InputSpec Spec(MLOperandDataType type, std::vector<uint32_t> shape) {
  return InputSpec{type, std::move(shape), -100, 100, 0.1};
}

void CheckTriangular(MLOperandDataType type, const std::vector<uint32_t>& shape, bool upper, int32_t diagonal,
                     uint64_t seed) {
  CheckAgainstReference(MLDeviceType::kCpu, "triangular", {Spec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLTriangularOptions options;
                          options.upper = upper;
                          options.diagonal = diagonal;
                          return MLNamedOperands{{"out", g.triangular(in[0], options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("cpu triangular matches reference on random shapes, diagonals and types", "[cpu][triangular]") {
  std::mt19937_64 rng(151);
  for (MLOperandDataType type : kAllTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(2 + rng() % 3);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const int32_t diagonal = static_cast<int32_t>(rng() % 15) - 7;
      CheckTriangular(type, shape, trial % 2 == 0, diagonal, rng());
    }
  }
}

TEST_CASE("cpu triangular: diagonals beyond the matrix, large tensors", "[cpu][triangular]") {
  std::mt19937_64 rng(152);
  for (MLOperandDataType type : kAllTypes) {
    for (bool upper : {true, false}) {
      CheckTriangular(type, {1, 1}, upper, 0, rng());
      CheckTriangular(type, {3, 4}, upper, 100, rng());
      CheckTriangular(type, {3, 4}, upper, -100, rng());
      CheckTriangular(type, {4, 300, 301}, upper, 3, rng());  // threads
    }
  }
}
