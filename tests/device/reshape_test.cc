// The device's kernels of the reshape family against the reference device.
#include "cross_device.h"

using namespace webnn;
using namespace webnn::test;

namespace {

void CheckReshape(MLOperandDataType type, const std::vector<uint32_t>& shape, const std::vector<uint32_t>& new_shape,
                  uint64_t seed) {
  CheckAgainstReference(DeviceUnderTest(), "reshape", {MixedSpec(type, shape)},
                        [&](MLGraphBuilder& g, const std::vector<MLOperand>& in) {
                          std::vector<MLDimension> dims(new_shape.begin(), new_shape.end());
                          return MLNamedOperands{{"out", g.reshape(in[0], dims)}};
                        },
                        Tolerance::Ulp(0), seed);
}

}  // namespace

TEST_CASE("reshape matches reference for every type", "[device][reshape]") {
  std::mt19937_64 rng(91);
  for (MLOperandDataType type : kAllDataTypes) {
    CheckReshape(type, {}, {1, 1}, rng());
    CheckReshape(type, {1}, {}, rng());
    CheckReshape(type, {3, 5, 7}, {105}, rng());
    CheckReshape(type, {3, 5, 7}, {7, 15}, rng());
    CheckReshape(type, {2, 256, 513}, {513, 512}, rng());  // threads
  }
}
