#include "test_util.h"

#include <cstdlib>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "io/test_vectors.h"
#include "ops/device.h"

namespace webnn::test {

// ---- The device under test ---------------------------------------------------

namespace {

std::optional<MLDeviceType>& ChosenDevice() {
  static std::optional<MLDeviceType> device;
  return device;
}

}  // namespace

std::optional<MLDeviceType> ParseDeviceName(const std::string& name) {
  for (MLDeviceType d : {MLDeviceType::kReference, MLDeviceType::kCpu, MLDeviceType::kGpu})
    if (name == ToString(d)) return d;
  return std::nullopt;
}

void SetDeviceUnderTest(MLDeviceType device) { ChosenDevice() = device; }

bool DeviceKeepsFloat32Denormals() {
  return ops::FindDevice(DeviceUnderTest())->float_behaviour().float32_denormals;
}

bool DeviceKeepsFloat32DenormalFilters() {
  return ops::FindDevice(DeviceUnderTest())->float_behaviour().float32_denormal_filters;
}

bool DeviceKeepsNegativeZeroSums(MLOperandDataType type) {
  return ops::FindDevice(DeviceUnderTest())->float_behaviour().negative_zero_sums.Contains(type);
}

void FlushFloat32Denormals(std::vector<std::byte>& float32_data) {
  for (size_t i = 0; i + 4 <= float32_data.size(); i += 4) {
    uint32_t bits;
    std::memcpy(&bits, float32_data.data() + i, 4);
    if ((bits & 0x7f800000u) == 0) bits &= 0x80000000u;
    std::memcpy(float32_data.data() + i, &bits, 4);
  }
}

MLDeviceType DeviceUnderTest() {
  std::optional<MLDeviceType>& device = ChosenDevice();
  if (!device) {
    // main() sets it; a test binary with another main() reads the environment.
    const char* env = std::getenv("WEBNN_TEST_DEVICE");
    const std::optional<MLDeviceType> parsed = ParseDeviceName(env ? env : "cpu");
    if (!parsed) throw std::invalid_argument(std::string("WEBNN_TEST_DEVICE: unknown device '") + env + "'");
    device = *parsed;
  }
  return *device;
}

std::string DeviceUnderTestName() { return std::string(ToString(DeviceUnderTest())); }

PinDeviceUnderTest::PinDeviceUnderTest(MLDeviceType device) : saved_(DeviceUnderTest()) {
  SetDeviceUnderTest(device);
}
PinDeviceUnderTest::~PinDeviceUnderTest() { SetDeviceUnderTest(saved_); }

bool DeviceUnderTestRunsPasses() {
  // The device says which fused forms its kernels implement; graphs for a
  // device that implements none go through no passes.
  if (ops::FindDevice(DeviceUnderTest())->Fusions().any()) return true;
  WARN("the " << DeviceUnderTestName() << " device runs graphs as built, without passes: nothing to check");
  return false;
}

// ---- Cases a device under test does not support ------------------------------

namespace {

struct UnsupportedCases {
  std::mutex mutex;
  // device -> reason -> cases
  std::map<MLDeviceType, std::map<std::string, int>> reasons;
};
UnsupportedCases& Unsupported() {
  static UnsupportedCases cases;
  return cases;
}

}  // namespace

bool MayLeaveOpsOut(MLDeviceType device) {
  return device != MLDeviceType::kReference && device != MLDeviceType::kCpu;
}

bool RecordUnsupported(MLDeviceType device, const std::string& reason) {
  UnsupportedCases& u = Unsupported();
  std::lock_guard<std::mutex> lock(u.mutex);
  return ++u.reasons[device][reason] == 1;
}

bool RunUnlessUnsupported(MLDeviceType device, const std::string& what, const std::function<void()>& f) {
  if (!MayLeaveOpsOut(device)) {
    f();
    return true;
  }
  try {
    f();
  } catch (const MLException& e) {
    if (!io::IsUnsupportedError(e)) throw;
    const std::string reason = std::string(e.name()) + ": " + e.what();
    if (RecordUnsupported(device, reason)) WARN("unsupported on " << ToString(device) << ": " << what << " | " << reason);
    return false;
  }
  return true;
}

std::string UnsupportedSummary() {
  UnsupportedCases& u = Unsupported();
  std::lock_guard<std::mutex> lock(u.mutex);
  std::ostringstream os;
  for (const auto& [device, reasons] : u.reasons) {
    int total = 0;
    for (const auto& [reason, n] : reasons) total += n;
    os << ToString(device) << ": " << total << (total == 1 ? " case" : " cases") << " unsupported:\n";
    size_t shown = 0;
    for (const auto& [reason, n] : reasons) {
      if (++shown > 50) {
        os << "  ... and " << reasons.size() - 50 << " more reasons\n";
        break;
      }
      os << "  " << n << " x " << reason << "\n";
    }
  }
  return os.str();
}

std::map<std::string, HostTensor> Run(
    MLDeviceType device, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body) {
  return Run({.device = device, .strictPlacement = true}, inputs, body);
}

std::map<std::string, HostTensor> Run(
    const MLContextOptions& options, const std::vector<HostTensor>& inputs,
    const std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>& body) {
  MLContext ctx = ML::createContext(options);
  MLGraphBuilder builder(ctx);
  std::vector<MLOperand> operands;
  for (size_t i = 0; i < inputs.size(); ++i) {
    MLOperandDescriptor desc{inputs[i].type, {}};
    for (uint32_t d : inputs[i].shape) desc.shape.emplace_back(d);
    operands.push_back(builder.input("in" + std::to_string(i), desc));
  }
  MLNamedOperands outs = body(builder, operands);
  MLGraph graph = builder.build(outs);
  MLNamedTensors in_tensors, out_tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    MLTensor t = ctx.createTensor({inputs[i].type, inputs[i].shape, false, true});
    ctx.writeTensor(t, MLBufferSource(inputs[i].data));
    in_tensors["in" + std::to_string(i)] = t;
  }
  std::map<std::string, HostTensor> result;
  for (const auto& [name, operand] : outs) {
    std::vector<uint32_t> shape;
    for (const MLDimension& d : operand.shape()) shape.push_back(static_cast<uint32_t>(d.size()));
    out_tensors[name] = ctx.createTensor({operand.dataType(), shape, true, false});
    result[name] = HostTensor{operand.dataType(), shape, {}};
  }
  ctx.dispatch(graph, in_tensors, out_tensors);
  for (auto& [name, t] : result) t.data = ctx.readTensor(out_tensors[name]);
  return result;
}

std::string ErrorName(const std::function<void()>& f) {
  try {
    f();
  } catch (const MLException& e) {
    return e.name();
  }
  return "";
}

std::string ErrorMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const MLException& e) {
    return e.what();
  }
  return "";
}

std::string ErrorText(const std::function<void()>& f) {
  try {
    f();
  } catch (const MLException& e) {
    return std::string(e.name()) + ": " + e.what();
  }
  return "";
}

MLOperand ApplyUnaryOp(MLGraphBuilder& b, const std::string& op, const MLOperand& x, const UnaryOpOptions& o) {
  if (op == "abs") return b.abs(x);
  if (op == "ceil") return b.ceil(x);
  if (op == "cos") return b.cos(x);
  if (op == "erf") return b.erf(x);
  if (op == "exp") return b.exp(x);
  if (op == "floor") return b.floor(x);
  if (op == "identity") return b.identity(x);
  if (op == "log") return b.log(x);
  if (op == "neg") return b.neg(x);
  if (op == "reciprocal") return b.reciprocal(x);
  if (op == "roundEven") return b.roundEven(x);
  if (op == "sin") return b.sin(x);
  if (op == "sign") return b.sign(x);
  if (op == "sqrt") return b.sqrt(x);
  if (op == "tan") return b.tan(x);
  if (op == "elu") return b.elu(x, {.alpha = o.alpha});
  if (op == "gelu") return b.gelu(x);
  if (op == "hardSigmoid") return b.hardSigmoid(x, {.alpha = o.alpha, .beta = o.beta});
  if (op == "hardSwish") return b.hardSwish(x);
  if (op == "leakyRelu") return b.leakyRelu(x, {.alpha = o.alpha});
  if (op == "linear") return b.linear(x, {.alpha = o.alpha, .beta = o.beta});
  if (op == "relu") return b.relu(x);
  if (op == "sigmoid") return b.sigmoid(x);
  if (op == "softplus") return b.softplus(x);
  if (op == "softsign") return b.softsign(x);
  if (op == "tanh") return b.tanh(x);
  if (op == "clamp") return b.clamp(x, {.minValue = o.lo, .maxValue = o.hi});
  throw std::invalid_argument("ApplyUnaryOp: unknown op " + op);
}

}  // namespace webnn::test
