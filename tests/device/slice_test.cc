// The device's kernels of the slice family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckSlice(MLOperandDataType type, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& starts,
                const std::vector<uint32_t>& sizes, std::optional<std::vector<uint32_t>> strides, uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "slice", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLSliceOptions options;
                          options.strides = strides;
                          return MLNamedOperands{{"out", g.slice(in[0], starts, sizes, options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

// A random valid slice of `shape`: a start, a window size that fits, and a
// step no larger than the window (the output has ceil(size / step) elements).
void RandomSlice(std::mt19937_64& rng, const std::vector<uint32_t>& shape, bool steps, std::vector<uint32_t>& starts,
                 std::vector<uint32_t>& sizes, std::vector<uint32_t>& strides) {
  starts.clear(), sizes.clear(), strides.clear();
  for (uint32_t n : shape) {
    const uint32_t start = static_cast<uint32_t>(rng() % n);
    const uint32_t size = static_cast<uint32_t>(1 + rng() % (n - start));
    starts.push_back(start);
    sizes.push_back(size);
    strides.push_back(steps ? static_cast<uint32_t>(1 + rng() % std::min<uint32_t>(3, size)) : 1);
  }
}

}  // namespace

TEST_CASE("slice matches reference on random shapes, starts, steps and types", "[device][slice]") {
  std::mt19937_64 rng(51);
  std::vector<uint32_t> starts, sizes, strides;
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 24; ++trial) {
      const uint32_t rank = static_cast<uint32_t>(rng() % 6);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 3 == 0 ? 40 : 9);
      const bool steps = trial % 2 == 1;
      RandomSlice(rng, shape, steps, starts, sizes, strides);
      CheckSlice(type, shape, starts, sizes, steps ? std::optional(strides) : std::nullopt, rng());
    }
  }
}

TEST_CASE("slice: whole rows, single columns, innermost steps, large tensors", "[device][slice]") {
  std::mt19937_64 rng(52);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckSlice(type, {1}, {0}, {1}, std::nullopt, rng());
    CheckSlice(type, {6, 37}, {1, 0}, {4, 37}, std::nullopt, rng());                  // whole rows
    CheckSlice(type, {6, 37}, {0, 5}, {6, 1}, std::nullopt, rng());                   // one column
    CheckSlice(type, {6, 37}, {0, 1}, {6, 12}, std::vector<uint32_t>{1, 3}, rng());   // innermost step
    CheckSlice(type, {5, 8, 2}, {0, 1, 0}, {5, 3, 2}, std::vector<uint32_t>{2, 2, 1}, rng());
    CheckSlice(type, {1, 64, 80, 81}, {0, 3, 1, 0}, {1, 60, 78, 81}, std::nullopt, rng());  // threads, row copies
    CheckSlice(type, {300, 1001}, {1, 2}, {299, 333}, std::vector<uint32_t>{1, 3}, rng());  // threads, gathers
  }
}
