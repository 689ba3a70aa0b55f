// The device's kernels of scatterElements and scatterND against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

// Indices over [-2 * dim, 2 * dim] (uint32: [0, 2 * dim]): wrapping, clamping
// and many repeated targets (the last update in row-major order must win).
InputSpec Indices(MLOperandDataType type, std::vector<uint32_t> shape, uint32_t dim, double special = 0.05) {
  const double lo = type == MLOperandDataType::kUint32 ? 0 : -2.0 * dim;
  return InputSpec{type, std::move(shape), lo, 2.0 * dim, special};
}

void Check(const std::string& op, MLOperandDataType type, const std::vector<uint32_t>& shape, const InputSpec& indices,
           const std::vector<uint32_t>& updates_shape, uint32_t axis, uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), op, {MixedSpec(type, shape), indices, MixedSpec(type, updates_shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          if (op == "scatterElements") {
                            MLScatterOptions options;
                            options.axis = axis;
                            return MLNamedOperands{{"out", g.scatterElements(in[0], in[1], in[2], options)}};
                          }
                          return MLNamedOperands{{"out", g.scatterND(in[0], in[1], in[2])}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("scatterElements matches reference on random shapes, axes, index and data types", "[device][scatter]") {
  std::mt19937_64 rng(141);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 18; ++trial) {
      const MLOperandDataType index_type = kIndexTypes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const uint32_t axis = static_cast<uint32_t>(rng() % rank);
      std::vector<uint32_t> idx_shape = shape;
      idx_shape[axis] = static_cast<uint32_t>(1 + rng() % 7);
      Check("scatterElements", type, shape, Indices(index_type, idx_shape, shape[axis]), idx_shape, axis, rng());
    }
  }
  for (MLOperandDataType index_type : kIndexTypes) {  // threads
    Check("scatterElements", MLOperandDataType::kFloat32, {64, 33, 129}, Indices(index_type, {64, 17, 129}, 33),
          {64, 17, 129}, 1, rng());
    Check("scatterElements", MLOperandDataType::kUint64, {300, 257}, Indices(index_type, {300, 260}, 257),
          {300, 260}, 1, rng());
    Check("scatterElements", MLOperandDataType::kFloat16, {70, 5000}, Indices(index_type, {40, 5000}, 70),
          {40, 5000}, 0, rng());
  }
}

TEST_CASE("scatterND matches reference on random shapes, index and data types", "[device][scatter]") {
  std::mt19937_64 rng(142);
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 18; ++trial) {
      const MLOperandDataType index_type = kIndexTypes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 4);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, 9);
      const uint32_t coordinates = static_cast<uint32_t>(1 + rng() % rank);
      std::vector<uint32_t> idx_shape = RandomShape(rng, static_cast<uint32_t>(rng() % 3), 6);
      std::vector<uint32_t> updates_shape = idx_shape;
      updates_shape.insert(updates_shape.end(), shape.begin() + coordinates, shape.end());
      idx_shape.push_back(coordinates);
      const uint32_t dim = *std::max_element(shape.begin(), shape.begin() + coordinates);
      Check("scatterND", type, shape, Indices(index_type, idx_shape, dim), updates_shape, 0, rng());
    }
  }
  for (MLOperandDataType index_type : kIndexTypes) {  // threads
    // Many one-element updates (slice ranges per thread, repeated targets).
    Check("scatterND", MLOperandDataType::kInt32, {50, 40, 64}, Indices(index_type, {60000, 3}, 64), {60000}, 0,
          rng());
    // Few long slices (each copy split over threads), repeated.
    Check("scatterND", MLOperandDataType::kFloat32, {4, 200, 300}, Indices(index_type, {6, 1}, 4), {6, 200, 300}, 0,
          rng());
    Check("scatterND", MLOperandDataType::kInt8, {30, 40, 64}, Indices(index_type, {500, 2}, 40), {500, 64}, 0,
          rng());
    // Short slices bucketed by output range over threads.
    Check("scatterND", MLOperandDataType::kFloat16, {200, 300, 8}, Indices(index_type, {3000, 2}, 300), {3000, 8}, 0,
          rng());
  }
}
