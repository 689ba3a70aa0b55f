// Helpers for tests: build a graph with a lambda, run it on a device with typed
// host data, and compare results.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/float16.h"
#include "webnn/webnn.h"

namespace webnn::test {

// Raw bytes of a typed vector.
template <typename T>
std::vector<std::byte> Bytes(const std::vector<T>& v) {
  std::vector<std::byte> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}
template <typename T>
std::vector<T> FromBytes(const std::vector<std::byte>& b) {
  std::vector<T> out(b.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), b.data(), out.size() * sizeof(T));
  return out;
}
// float16 bit patterns of doubles (round to nearest even) and back.
inline std::vector<uint16_t> Half(const std::vector<double>& v) {
  std::vector<uint16_t> out;
  for (double d : v) out.push_back(core::DoubleToHalfBits(d));
  return out;
}
inline std::vector<double> FromHalf(const std::vector<uint16_t>& v) {
  std::vector<double> out;
  for (uint16_t h : v) out.push_back(core::HalfBitsToDouble(h));
  return out;
}

struct HostTensor {
  MLOperandDataType type;
  std::vector<uint32_t> shape;
  std::vector<std::byte> data;
};
template <typename T>
HostTensor Tensor(MLOperandDataType type, std::vector<uint32_t> shape, const std::vector<T>& values) {
  return HostTensor{type, std::move(shape), Bytes(values)};
}

// ---- The device under test --------------------------------------------------
// The [device] tests run on one device chosen once per process: `webnn_tests
// --device cpu|gpu|reference` (tests/main.cc), else the environment variable
// WEBNN_TEST_DEVICE, else cpu. [reference] tests always use the reference
// device; the few [cpu] tests are about the cpu device itself (Highway
// targets, kernels called directly) and pin it (PinDeviceUnderTest).
MLDeviceType DeviceUnderTest();
std::string DeviceUnderTestName();
// "reference", "cpu", "gpu" -> the device; nullopt for any other name.
std::optional<MLDeviceType> ParseDeviceName(const std::string& name);
// Called by main() once, before any test runs.
void SetDeviceUnderTest(MLDeviceType device);

// Whether the device under test keeps float32 denormals (ops::FloatBehaviour:
// an NVIDIA GPU may flush them), and whether its matmul/gemm of `type` gives -0
// for a sum of -0 products.
bool DeviceKeepsFloat32Denormals();
// Whether conv2d's subnormal float32 filter values count as such on the
// device under test (FloatBehaviour::float32_denormal_filters).
bool DeviceKeepsFloat32DenormalFilters();
bool DeviceKeepsNegativeZeroSums(MLOperandDataType type);
// Float32 values below the smallest normal (denormals) replaced by a zero of
// their sign, in place: what a device that flushes denormals reads and writes.
void FlushFloat32Denormals(std::vector<std::byte>& float32_data);

// For a [cpu] test whose file shares helpers with the [device] tests:
// DeviceUnderTest() is `device` while this lives, so those helpers run on the
// cpu device whatever --device says.
class PinDeviceUnderTest {
 public:
  explicit PinDeviceUnderTest(MLDeviceType device);
  ~PinDeviceUnderTest();
  PinDeviceUnderTest(const PinDeviceUnderTest&) = delete;
  PinDeviceUnderTest& operator=(const PinDeviceUnderTest&) = delete;

 private:
  MLDeviceType saved_;
};

// The passes tests check what the passes make of graphs on the device under
// test; the reference device runs every graph as built. False, with a WARN,
// when the device under test is the reference device: such a test has
// nothing to check and returns.
bool DeviceUnderTestRunsPasses();

// ---- Cases a device under test does not support ------------------------------
// The reference and cpu devices claim every op and data type: a graph they
// refuse is a failure. Another device (gpu) may leave some out at first; a
// graph it refuses, when the reference device ran the same graph, counts as
// "unsupported on <device>" instead, and main() prints a summary at the end.
bool MayLeaveOpsOut(MLDeviceType device);
// Runs `f`, which builds and runs a graph on `device` after the reference
// device ran the same graph. Returns true when it ran. Returns false when
// `device` may leave ops out and refused the graph (io::IsUnsupportedError:
// NotSupportedError, or a TypeError for a data type outside its
// opSupportLimits()): the case is recorded, with a WARN naming `what` the
// first time each reason is seen. Any other exception propagates.
bool RunUnlessUnsupported(MLDeviceType device, const std::string& what, const std::function<void()>& f);
// For the passes tests' structure checks (which ops a compiled graph runs):
// returns `build(options)`; when options.device may leave ops out and refuses
// the graph, records it as above and returns `build` on the cpu device
// instead. The passes are the same on every device but the reference, so the
// structure checked is too.
template <typename Build>
auto BuildOrFallBackToCpu(const MLContextOptions& options, const std::string& what, const Build& build)
    -> decltype(build(options)) {
  std::optional<decltype(build(options))> result;
  if (RunUnlessUnsupported(options.device, what + " (structure checked on cpu)", [&] { result.emplace(build(options)); }))
    return std::move(*result);
  MLContextOptions cpu = options;
  cpu.device = MLDeviceType::kCpu;
  return build(cpu);
}
// Records one refused case; true the first time `reason` is seen for `device`.
bool RecordUnsupported(MLDeviceType device, const std::string& reason);
// "gpu: N cases unsupported:" and one line per distinct reason with its
// count, for each device that refused cases; empty when none did.
std::string UnsupportedSummary();

// Strict placement: the kernel tests measure the device itself.
inline MLContext Context(MLDeviceType device = MLDeviceType::kReference) {
  return ML::createContext({.device = device, .strictPlacement = true});
}

// Builds a graph: `body` receives the builder and the input operands (created
// from `inputs` in order, named "in0", "in1", ...) and returns the named outputs.
// Runs it once and returns each output's bytes.
std::map<std::string, HostTensor> Run(
    MLDeviceType device, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body);
// The same on a context created from `options`.
std::map<std::string, HostTensor> Run(
    const MLContextOptions& options, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body);

// The options an element-wise unary op or activation may take.
struct UnaryOpOptions {
  double alpha = 0, beta = 0;      // elu, hardSigmoid, leakyRelu, linear
  std::optional<MLNumber> lo, hi;  // clamp
};
// builder.<op>(x, options) for the element-wise unary ops (abs ... tan) and
// the activations (elu ... clamp), by name.
MLOperand ApplyUnaryOp(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const UnaryOpOptions& o = {});

// The exception name thrown by `f`, or "" if none ("TypeError", ...).
std::string ErrorName(const std::function<void()>& f);
// The message of the exception thrown by `f`, or "" if none.
std::string ErrorMessage(const std::function<void()>& f);
// Both: "DataError: <message>", or "" if nothing was thrown.
std::string ErrorText(const std::function<void()>& f);

}  // namespace webnn::test
