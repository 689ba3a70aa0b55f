// The device's kernels of the pad family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckPad(MLOperandDataType type, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& begin,
              const std::vector<uint32_t>& end, MLPaddingMode mode, MLNumber value, uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "pad", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          MLPadOptions options;
                          options.mode = mode;
                          options.value = value;
                          return MLNamedOperands{{"out", g.pad(in[0], begin, end, options)}};
                        },
                        Tolerance::Ulp(0), seed);
}

const MLPaddingMode kModes[] = {MLPaddingMode::kConstant, MLPaddingMode::kEdge, MLPaddingMode::kReflection};

}  // namespace

TEST_CASE("pad matches reference on random shapes, paddings, modes and types", "[device][pad]") {
  std::mt19937_64 rng(101);
  // Pad values exercising the cast: fractions, negatives into unsigned types,
  // out-of-range values clamped for narrow integers.
  const double values[] = {0.0, 3.75, -2.5, 300.0, -1e10, 1e10};
  for (MLOperandDataType type : kAllDataTypes) {
    for (int trial = 0; trial < 30; ++trial) {
      const MLPaddingMode mode = kModes[trial % 3];
      const uint32_t rank = static_cast<uint32_t>(1 + rng() % 5);
      const std::vector<uint32_t> shape = RandomShape(rng, rank, trial % 4 == 0 ? 40 : 9);
      std::vector<uint32_t> begin, end;
      for (uint32_t n : shape) {
        // Reflection needs padding < dim; leave some axes unpadded.
        const uint32_t limit = mode == MLPaddingMode::kReflection ? n : 5;
        begin.push_back(rng() % 3 == 0 ? 0 : static_cast<uint32_t>(rng() % limit));
        end.push_back(rng() % 3 == 0 ? 0 : static_cast<uint32_t>(rng() % limit));
      }
      CheckPad(type, shape, begin, end, mode, values[rng() % std::size(values)], rng());
    }
  }
}

TEST_CASE("pad: images, unpadded inner axes, no padding, large tensors", "[device][pad]") {
  std::mt19937_64 rng(102);
  for (MLOperandDataType type : kAllDataTypes) {
    for (MLPaddingMode mode : kModes) {
      CheckPad(type, {1}, {0}, {0}, mode, 1.0, rng());
      CheckPad(type, {2, 3, 9, 11}, {0, 0, 2, 3}, {0, 0, 1, 4}, mode, 7.0, rng());    // NCHW spatial
      CheckPad(type, {2, 9, 11, 3}, {0, 2, 3, 0}, {0, 1, 4, 0}, mode, 7.0, rng());    // NHWC: units of 3
      CheckPad(type, {5, 6, 7}, {2, 0, 0}, {3, 0, 0}, mode, -1.0, rng());            // only the first axis
      CheckPad(type, {1, 64, 56, 57}, {0, 0, 1, 1}, {0, 0, 1, 1}, mode, 0.0, rng());  // threads, rows
      CheckPad(type, {130000}, {5}, {4}, mode, 2.0, rng());                           // threads, row pieces
      CheckPad(type, {2, 40000}, {1, 3}, {1, 2}, mode, 2.0, rng());                   // few long rows
    }
    CheckPad(type, {3, 4}, {0, 0}, {0, 0}, MLPaddingMode::kConstant, 0.0, rng());
  }
}

TEST_CASE("pad: special float pad values", "[device][pad]") {
  std::mt19937_64 rng(103);
  for (MLOperandDataType type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
    for (double v : {std::nan(""), double{INFINITY}, -double{INFINITY}, -0.0, 1e6, 1e-9})
      CheckPad(type, {3, 5}, {1, 2}, {2, 1}, MLPaddingMode::kConstant, v, rng());
  }
}
