// Cross-device checks: run one graph with the same random inputs on the
// `reference` device and on a device under test, and require every output to
// be within a tolerance of the reference (ULP distance for floats, exact for
// integers; NaN must meet NaN, +-Inf the same infinity).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace webnn::test {

struct InputSpec {
  MLOperandDataType type = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  double lo = -1, hi = 1;  // value range (integers: inclusive)
  // Share of elements replaced by NaN, +-Inf, -0, +-0 and extreme finite values.
  double special_fraction = 0;
  bool constant = false;   // builder.constant() instead of builder.input()
};

struct Tolerance {
  // kScaled: |got - want| <= value * max(1, |want|), absolute for small
  // values and relative for large ones (sums whose terms grow, e.g. relu
  // recurrences fed +-65504).
  enum class Metric { kUlp, kAtol, kScaled };
  Metric metric = Metric::kUlp;
  double value = 0;
  static Tolerance Ulp(double v) { return {Metric::kUlp, v}; }
  static Tolerance Atol(double v) { return {Metric::kAtol, v}; }
  static Tolerance Scaled(double v) { return {Metric::kScaled, v}; }
};

// The spec's eight data types (data-movement ops take every one).
inline constexpr MLOperandDataType kAllDataTypes[] = {
    MLOperandDataType::kFloat32, MLOperandDataType::kFloat16, MLOperandDataType::kInt32, MLOperandDataType::kUint32,
    MLOperandDataType::kInt64,   MLOperandDataType::kUint64,  MLOperandDataType::kInt8,  MLOperandDataType::kUint8};
// The index types of gather/scatter.
inline constexpr MLOperandDataType kIndexTypes[] = {MLOperandDataType::kInt32, MLOperandDataType::kUint32,
                                                    MLOperandDataType::kInt64};

// Random values in [-100, 100] with 10% NaN/Inf/-0 (floats) or the type's
// extremes (integers) mixed in.
inline InputSpec MixedSpec(MLOperandDataType type, std::vector<uint32_t> shape) {
  return InputSpec{type, std::move(shape), -100, 100, 0.1};
}

// Random input data (deterministic for a seed).
std::vector<std::byte> RandomTensorData(const InputSpec& spec, std::mt19937_64& rng);

using GraphBody = std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>;

// Builds `body` on both devices (inputs named in0, in1, ...), dispatches with
// the same random data and CHECKs every output. Returns the number of elements
// compared: 0 when the device may leave ops out and refused the graph
// (RunUnlessUnsupported, test_util.h). `what` names the case in messages.
size_t CheckAgainstReference(MLDeviceType device, const std::string& what, const std::vector<InputSpec>& inputs,
                             const GraphBody& body, Tolerance tolerance, uint64_t seed);
// The same with the device under test created from `options` (e.g. graph
// passes turned off); the reference context is always the default one.
size_t CheckAgainstReference(const MLContextOptions& options, const std::string& what,
                             const std::vector<InputSpec>& inputs, const GraphBody& body, Tolerance tolerance,
                             uint64_t seed);

// Random shapes for sweeps: `rank` dims, each in [1, max_dim], with sizes 1
// and odd values favoured (they exercise masked tails and broadcasting).
std::vector<uint32_t> RandomShape(std::mt19937_64& rng, uint32_t rank, uint32_t max_dim);

}  // namespace webnn::test
