// The device's kernels of gather, gatherElements and gatherND against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

// Indices over [-2 * dim, 2 * dim] (uint32: [0, 2 * dim]) so that negative
// wrapping and clamping on both sides are exercised; `special` adds the index
// type's extremes.
InputSpec Indices(MLOperandDataType type, std::vector<uint32_t> shape, uint32_t dim, double special = 0.05) {
  const double lo = type == MLOperandDataType::kUint32 ? 0 : -2.0 * dim;
  return InputSpec{type, std::move(shape), lo, 2.0 * dim, special};
}

void Check(const std::string& op, MLOperandDataType type, const std::vector<uint32_t>& shape, const InputSpec& indices,
           uint32_t axis, uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), op, {MixedSpec(type, shape), indices},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLGatherOptions options;
                          options.axis = axis;
                          if (op == "gather") return MLNamedOperands{{"out", g.gather(in[0], in[1], options)}};
                          if (op == "gatherElements")
                            return MLNamedOperands{{"out", g.gatherElements(in[0], in[1], options)}};
                          return MLNamedOperands{{"out", g.gatherND(in[0], in[1])}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("gather matches reference on random shapes, axes, index and data types", "[device][gather]") {
  std::mt19937_64 rng(131);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 18; ++trial) {
      const MLOperandDataType index_type = kIndexTypes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      const std::vector<uint32_t> idx_shape = RandomShape(rng, static_cast<uint32_t>(rng() % 3), 9);
      Check("gather", type, shape, Indices(index_type, idx_shape, shape[axis]), axis, rng());
    }
  }
}

TEST_CASE("gather: embeddings, innermost axis, large tensors", "[device][gather]") {
  std::mt19937_64 rng(132);
  for (MLOperandDataType type : kAllDataTypes) {
    for (MLOperandDataType index_type : kIndexTypes) {
      Check("gather", type, {1}, Indices(index_type, {}, 1), 0, rng());
      Check("gather", type, {1000, 64}, Indices(index_type, {7, 50}, 1000), 0, rng());  // threads, row copies
      Check("gather", type, {61, 1001}, Indices(index_type, {301}, 1001), 1, rng());   // threads, element gathers
      Check("gather", type, {5, 3}, Indices(index_type, {4, 2}, 3, 0.3), 1, rng());
    }
  }
}

TEST_CASE("gatherElements matches reference on random shapes, axes, index and data types", "[device][gather]") {
  std::mt19937_64 rng(133);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 18; ++trial) {
      const MLOperandDataType index_type = kIndexTypes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      std::vector<uint32_t> idx_shape = shape;
      idx_shape[axis] = static_cast<uint32_t>(1 + rng() % 7);
      Check("gatherElements", type, shape, Indices(index_type, idx_shape, shape[axis]), axis, rng());
    }
  }
  for (MLOperandDataType index_type : kIndexTypes) {  // threads
    Check("gatherElements", MLOperandDataType::kFloat32, {64, 33, 129}, Indices(index_type, {64, 17, 129}, 33), 1,
          rng());
    Check("gatherElements", MLOperandDataType::kInt64, {300, 257}, Indices(index_type, {300, 260}, 257), 1, rng());
    Check("gatherElements", MLOperandDataType::kInt8, {70, 5000}, Indices(index_type, {40, 5000}, 70), 0, rng());
  }
}

TEST_CASE("gatherND matches reference on random shapes, index and data types", "[device][gather]") {
  std::mt19937_64 rng(134);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 18; ++trial) {
      const MLOperandDataType index_type = kIndexTypes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, 9);
      const uint32_t coordinates = static_cast<uint32_t>(1 + rng() % rank);
      std::vector<uint32_t> idx_shape = RandomShape(rng, static_cast<uint32_t>(rng() % 3), 6);
      idx_shape.push_back(coordinates);
      // One range for every coordinate: the largest dim, so small dims clamp often.
      const uint32_t dim = *std::max_element(shape.begin(), shape.begin() + coordinates);
      Check("gatherND", type, shape, Indices(index_type, idx_shape, dim), 0, rng());
    }
  }
  for (MLOperandDataType index_type : kIndexTypes) {  // threads
    Check("gatherND", MLOperandDataType::kFloat32, {50, 40, 64}, Indices(index_type, {300, 2}, 50), 0, rng());
    Check("gatherND", MLOperandDataType::kUint8, {50, 40, 64}, Indices(index_type, {20000, 3}, 64), 0, rng());
  }
}
