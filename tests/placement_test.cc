// Placement across devices (issue 10): steps the context's device does not
// run go to a fallback device, with copies between device memories; the
// graph reports where each node runs; strict placement refuses instead.
//
// The cpu and reference devices run every op, so the tests make a device
// "lack" an op with scheduler::ScopedStepFilterForTesting. On the gpu
// (lavapipe in CI) a fallback to cpu crosses device memories.
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "ops/device.h"
#include "memory/ledger.h"
#include "scheduler/executable.h"
#include "scheduler/placement.h"
#include "test_util.h"
#include "webnn/webnn.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::kFloat32;

// Every device runs what it runs, but `device` refuses `op`.
scheduler::StepFilter Lacks(MLDeviceType device, const std::string& op) {
  return [device, op](const ops::Device& d, const ops::Program& program, const ops::ProgramStep& step) {
    if (d.type() == device && ops::OpName(step.op) == op) return false;
    return scheduler::DeviceRunsStep(d, program, step);
  };
}

std::vector<float> Iota(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * (static_cast<float>(i % 17) - 8.0f);
  return v;
}

MLBufferSource View(const std::vector<float>& v) {
  return MLBufferSource(std::span<const std::byte>(reinterpret_cast<const std::byte*>(v.data()), v.size() * 4));
}

struct Result {
  std::vector<float> y, z;
  MLGraphPlacement placement;
};

// y = neg(a + b) * a, then z = neg(y) + (a + b): neg runs twice, and a + b
// (made before the first neg) is read again after the second, so a value
// crosses from the first segment to the third.
Result Run(const MLContextOptions& options, const MLGraphOptions& graph_options = {}) {
  const uint32_t n = 1000;
  MLContext ctx = ML::createContext(options);
  MLGraphBuilder b(ctx);
  MLOperand a = b.input("a", {F32, {n}});
  MLOperand w = b.constant({F32, {n}}, View(Iota(n, 0.25f)));
  MLOperand sum = b.add(a, w, {.label = "sum"});
  MLOperand y = b.mul(b.neg(sum, {.label = "neg1"}), a, {.label = "product"});
  MLOperand z = b.add(b.neg(y, {.label = "neg2"}), sum, {.label = "skip"});
  MLGraph graph = b.build({{"y", y}, {"z", z}}, graph_options);
  MLTensor at = ctx.createTensor({F32, {n}, false, true});
  MLTensor yt = ctx.createTensor({F32, {n}, true, false});
  MLTensor zt = ctx.createTensor({F32, {n}, true, false});
  const std::vector<float> input = Iota(n, 0.5f);
  ctx.writeTensor(at, View(input));
  ctx.dispatch(graph, {{"a", at}}, {{"y", yt}, {"z", zt}});
  Result r;
  for (auto [tensor, out] : {std::pair{&yt, &r.y}, std::pair{&zt, &r.z}}) {
    const std::vector<std::byte> bytes = ctx.readTensor(*tensor);
    out->resize(bytes.size() / 4);
    std::memcpy(out->data(), bytes.data(), bytes.size());
  }
  r.placement = graph.placement();
  return r;
}

size_t CountOn(const MLGraphPlacement& p, MLDeviceType device) {
  size_t count = 0;
  for (const MLNodePlacement& node : p.nodes) count += node.device == device;
  return count;
}

}  // namespace

TEST_CASE("placement: every node on the context's device when it runs them all", "[placement]") {
  const Result r = Run({.device = MLDeviceType::kCpu, .graphPasses = false});
  CHECK(r.placement.device == MLDeviceType::kCpu);
  CHECK(r.placement.effectivePolicy == MLPowerPreference::kDefault);
  CHECK(r.placement.nodes.size() == 5);
  CHECK(CountOn(r.placement, MLDeviceType::kCpu) == 5);
  CHECK(r.placement.transfers == 0);
}

TEST_CASE("placement: ops the device lacks run on the fallback, results unchanged", "[placement]") {
  const Result alone = Run({.device = MLDeviceType::kCpu, .graphPasses = false});
  scheduler::ScopedStepFilterForTesting lacks(Lacks(MLDeviceType::kCpu, "neg"));
  const Result placed = Run({.device = MLDeviceType::kCpu, .graphPasses = false});
  // Both negs on reference (the next fallback after cpu), the rest on cpu:
  // four segments, host memory on both sides, so no copies.
  CHECK(placed.placement.effectivePolicy == MLPowerPreference::kFallback);
  for (const MLNodePlacement& node : placed.placement.nodes) {
    INFO(node.op << " '" << node.label << "'");
    CHECK(node.device == (node.op == "neg" ? MLDeviceType::kReference : MLDeviceType::kCpu));
  }
  CHECK(placed.placement.transfers == 0);
  // add, neg and mul of float32 are exact on both devices.
  CHECK(placed.y == alone.y);
  CHECK(placed.z == alone.z);
}

TEST_CASE("placement: strict placement refuses, naming the node, the op and the device", "[placement]") {
  scheduler::ScopedStepFilterForTesting lacks(Lacks(MLDeviceType::kCpu, "neg"));
  const std::string context_strict =
      ErrorName([] { Run({.device = MLDeviceType::kCpu, .graphPasses = false, .strictPlacement = true}); });
  CHECK(context_strict == "NotSupportedError");
  const std::string message = ErrorMessage(
      [] { Run({.device = MLDeviceType::kCpu, .graphPasses = false}, {.strictPlacement = true}); });
  CHECK_THAT(message, Catch::Contains("neg 'neg1'") && Catch::Contains("cpu device") && Catch::Contains("strict"));
  // The graph's option overrides the context's.
  CHECK(Run({.device = MLDeviceType::kCpu, .graphPasses = false, .strictPlacement = true},
            {.strictPlacement = false})
            .placement.effectivePolicy == MLPowerPreference::kFallback);
}

TEST_CASE("placement: an op no device runs is a NotSupportedError", "[placement]") {
  scheduler::ScopedStepFilterForTesting lacks(
      [](const ops::Device& d, const ops::Program& program, const ops::ProgramStep& step) {
        return ops::OpName(step.op) != "neg" && scheduler::DeviceRunsStep(d, program, step);
      });
  CHECK_THAT(ErrorMessage([] { Run({.device = MLDeviceType::kCpu, .graphPasses = false}); }),
             Catch::Contains("neg 'neg1'") && Catch::Contains("nor does any other device"));
}

TEST_CASE("placement: a fallback across device memories copies values both ways", "[placement][gpu]") {
  if (!ops::FindDevice(MLDeviceType::kGpu)) {
    WARN("skipped: no gpu device (" << ops::WhyUnavailable(MLDeviceType::kGpu) << ")");
    return;
  }
  const Result alone = Run({.device = MLDeviceType::kGpu, .graphPasses = false});
  scheduler::ScopedStepFilterForTesting lacks(Lacks(MLDeviceType::kGpu, "neg"));
  const Result placed = Run({.device = MLDeviceType::kGpu, .graphPasses = false});
  CHECK(CountOn(placed.placement, MLDeviceType::kCpu) == 2);
  CHECK(CountOn(placed.placement, MLDeviceType::kGpu) == 3);
  // Into cpu memory: sum for neg1, y for neg2; back to the gpu: neg1's and
  // neg2's results. 4 copies of 1000 floats.
  CHECK(placed.placement.transfers == 4);
  CHECK(placed.placement.transferBytes == 4 * 4000);
  CHECK(placed.y == alone.y);
  CHECK(placed.z == alone.z);
}

TEST_CASE("placement: the low-latency policy runs on the cpu and is the graph's effective policy", "[placement]") {
  MLContext ctx = ML::createContext({.powerPreference = MLPowerPreference::kLowLatency});
  CHECK(ctx.deviceType() == MLDeviceType::kCpu);
  const Result r = Run({.powerPreference = MLPowerPreference::kLowLatency});
  CHECK(r.placement.device == MLDeviceType::kCpu);
  CHECK(r.placement.effectivePolicy == MLPowerPreference::kLowLatency);
}

namespace {

// Nine steps with the shapes of data flow a placement must keep: a
// multi-output op (split) whose outputs go different ways, a value read again
// several steps later (s by sub), a graph output that later steps read too
// (u), and a constant read by steps at both ends (w).
const char* const kSteps[] = {"s", "split", "relu", "mul", "concat", "sub", "neg", "exp", "f"};

// The outputs, and the warnings the build logged (the fallback's list).
std::map<std::string, std::vector<float>> RunMixed(MLDeviceType device, std::vector<std::string>* warnings = nullptr) {
  MLContextOptions options{.device = device, .graphPasses = false};
  options.logCallback = [warnings](MLLogLevel level, std::string_view message) {
    if (warnings && level == MLLogLevel::kWarning) warnings->emplace_back(message);
  };
  MLContext ctx = ML::createContext(options);
  MLGraphBuilder b(ctx);
  const MLOperandDescriptor desc{F32, {2, 8}};
  MLOperand a = b.input("a", desc);
  MLOperand w = b.constant(desc, View(Iota(16, 0.125f)));
  MLOperand s = b.add(a, w, {.label = "s"});
  std::vector<MLOperand> pq = b.split(s, 2u, {.label = "split", .axis = 0});
  MLOperand r = b.relu(pq[0], {.label = "relu"});
  MLOperand t = b.mul(pq[1], r, {.label = "mul"});
  MLOperand u = b.concat({r, t}, 0, {.label = "concat"});
  MLOperand v = b.sub(u, s, {.label = "sub"});
  MLOperand e = b.exp(b.neg(v, {.label = "neg"}), {.label = "exp"});
  MLOperand f = b.add(e, w, {.label = "f"});
  MLGraph graph = b.build({{"u", u}, {"v", v}, {"f", f}});
  MLTensor at = ctx.createTensor({F32, {2, 8}, false, true});
  ctx.writeTensor(at, View(Iota(16, 0.25f)));
  MLNamedTensors out_tensors;
  for (const char* name : {"u", "v", "f"}) out_tensors[name] = ctx.createTensor({F32, {2, 8}, true, false});
  ctx.dispatch(graph, {{"a", at}}, out_tensors);
  std::map<std::string, std::vector<float>> result;
  for (const auto& [name, tensor] : out_tensors) {
    const std::vector<std::byte> bytes = ctx.readTensor(tensor);
    std::vector<float>& out = result[name];
    out.resize(bytes.size() / 4);
    std::memcpy(out.data(), bytes.data(), bytes.size());
  }
  return result;
}

}  // namespace

TEST_CASE("placement: any split of the steps between two devices computes the same values", "[placement][gpu]") {
  std::vector<MLDeviceType> devices = {MLDeviceType::kCpu};  // fallback reference: the same memory
  if (ops::FindDevice(MLDeviceType::kGpu)) devices.push_back(MLDeviceType::kGpu);  // fallback cpu: copies
  for (MLDeviceType device : devices) {
    const auto alone = RunMixed(device);
    // Every placement with the first or last step moved, and random ones: 40 of the 512.
    std::mt19937 rng(7);
    std::vector<uint32_t> masks = {1u, 1u << 8, 0x1FFu >> 1, 0x155u, 0x0AAu};
    while (masks.size() < 40) masks.push_back(rng() & 0x1FFu);
    for (uint32_t mask : masks) {
      INFO("device " << static_cast<int>(device) << ", steps moved to the fallback: mask 0x" << std::hex << mask);
      scheduler::ScopedStepFilterForTesting moved(
          [device, mask](const ops::Device& d, const ops::Program& program, const ops::ProgramStep& step) {
            for (size_t i = 0; i < std::size(kSteps); ++i)
              if (step.label == kSteps[i] && d.type() == device && (mask >> i) & 1) return false;
            return scheduler::DeviceRunsStep(d, program, step);
          });
      std::vector<std::string> warnings;
      const auto placed = RunMixed(device, &warnings);
      // One warning per build that moved steps, naming each of them.
      REQUIRE(warnings.size() == (mask != 0 ? 1u : 0u));
      for (size_t i = 0; i < std::size(kSteps); ++i)
        if ((mask >> i) & 1) CHECK_THAT(warnings[0], Catch::Contains(std::string("[") + kSteps[i] + "]"));
      for (const auto& [name, values] : alone) {
        INFO("output " << name);
        REQUIRE(placed.at(name).size() == values.size());
        for (size_t k = 0; k < values.size(); ++k)
          CHECK(placed.at(name)[k] == Approx(values[k]).epsilon(1e-5).margin(1e-6));
      }
    }
  }
}

TEST_CASE("placement: a program that reads a value before any step computes it is refused at build, naming it", "[placement]") {
  // What a faulty graph pass could leave: relu reads intermediate value 1,
  // which nothing computes. Before the check a single device read a buffer
  // nothing wrote, and several devices failed at dispatch with "map::at".
  ops::Program program;
  const core::OperandDesc desc{core::DataType::kFloat32, {core::Dim::Static(4)}};
  program.values = {{ops::ProgramValue::Kind::kInput, desc},
                    {ops::ProgramValue::Kind::kIntermediate, desc},
                    {ops::ProgramValue::Kind::kOutput, desc}};
  program.steps.push_back({ops::OpKind::relu, "r", std::make_shared<ops::NoAttrs>(), {1}, {2}});
  scheduler::Placement placement;
  placement.devices = {ops::FindDevice(MLDeviceType::kCpu)};
  placement.step_device = {0};
  const auto build = [&] {
    scheduler::Executable(placement, program, {}, std::make_shared<memory::Ledger>("test limit", 0, nullptr));
  };
  CHECK(ErrorName(build) == "OperationError");
  CHECK_THAT(ErrorMessage(build), Catch::Contains("relu 'r'") && Catch::Contains("reads value 1") &&
                                      Catch::Contains("no step before it computes"));
  // A step that reads its own output (a fused node given its own sum as its
  // scale did that) is refused the same way.
  program.steps[0].outputs = {1};
  program.values[2].kind = ops::ProgramValue::Kind::kIntermediate;
  CHECK(ErrorName(build) == "OperationError");
  CHECK_THAT(ErrorMessage(build), Catch::Contains("reads value 1"));
}
