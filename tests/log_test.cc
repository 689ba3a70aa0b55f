// A context's log (MLContextOptions::logLevel, logCallback; issue 13): the
// messages a user cannot see otherwise arrive at their level, the level
// filters them, a callback that throws is harmless, and without a callback
// they go to stderr.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ops/device.h"
#include "scheduler/placement.h"
#include "test_util.h"
#include "webnn/webnn.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::kFloat32;

struct Log {
  std::mutex mutex;
  std::vector<std::pair<MLLogLevel, std::string>> messages;

  MLContextOptions Options(MLLogLevel level) {
    return {.device = DeviceUnderTest(), .logLevel = level, .logCallback = [this](MLLogLevel l, std::string_view m) {
              std::lock_guard<std::mutex> lock(mutex);
              messages.emplace_back(l, std::string(m));
            }};
  }
  // Messages at `level` containing `text`.
  std::vector<std::string> Find(MLLogLevel level, const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::string> out;
    for (const auto& [l, m] : messages)
      if (l == level && m.find(text) != std::string::npos) out.push_back(m);
    return out;
  }
  size_t CountAt(MLLogLevel level) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t n = 0;
    for (const auto& [l, m] : messages) n += l == level;
    return n;
  }
};

// x -> conv2d(bias) -> relu -> y, built, dispatched and read back.
void BuildAndRun(MLContext& ctx) {
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {1, 2, 4, 4}});
  MLOperand w = b.constant({F32, {3, 2, 1, 1}}, std::vector<float>(6, 0.5f));
  MLOperand bias = b.constant({F32, {3}}, std::vector<float>{1, 2, 3});
  MLOperand y = b.relu(b.conv2d(x, w, {.label = "conv", .bias = bias}), {.label = "act"});
  MLGraph g = b.build({{"y", y}});
  MLTensor xt = ctx.createTensor({F32, {1, 2, 4, 4}, false, true});
  MLTensor yt = ctx.createTensor({F32, {1, 3, 4, 4}, true, false});
  ctx.writeTensor(xt, std::vector<float>(32, 1.0f));
  ctx.dispatch(g, {{"x", xt}}, {{"y", yt}});
  CHECK(ctx.readTensor(yt).size() == 48 * 4);
}

}  // namespace

TEST_CASE("log: the device choice and the build summary arrive at info", "[log][device]") {
  Log log;
  MLContext ctx = ML::createContext(log.Options(MLLogLevel::kInfo));
  BuildAndRun(ctx);
  const auto chosen = log.Find(MLLogLevel::kInfo, "createContext: the " + ctx.deviceName() + " device");
  REQUIRE(chosen.size() == 1);
  CHECK(chosen[0].find("asked for") != std::string::npos);
  const auto built = log.Find(MLLogLevel::kInfo, "build: 2 nodes built, ");
  REQUIRE(built.size() == 1);
  INFO(built[0]);
  CHECK(built[0].find("placed ") != std::string::npos);
  CHECK(built[0].find("arena ") != std::string::npos);
  CHECK(built[0].find("compiled in ") != std::string::npos);
  // The reference device runs graphs as built; the others fuse relu into the conv.
  if (DeviceUnderTest() == MLDeviceType::kReference) {
    CHECK(built[0].find("2 steps after graph passes (graph passes off)") != std::string::npos);
  } else {
    CHECK(built[0].find("1 steps after graph passes") != std::string::npos);
    CHECK(built[0].find("1 activations") != std::string::npos);
  }
  // Info leaves out the per-dispatch messages.
  CHECK(log.CountAt(MLLogLevel::kDebug) == 0);
  CHECK(log.Find(MLLogLevel::kInfo, "dispatch").empty());
}

TEST_CASE("log: the level filters; debug adds each dispatch; none is silent", "[log][device]") {
  Log warning, debug, none;
  {
    MLContext ctx = ML::createContext(warning.Options(MLLogLevel::kWarning));
    BuildAndRun(ctx);
    ctx.destroy();  // info: not delivered at warning
  }
  CHECK(warning.messages.empty());
  {
    MLContext ctx = ML::createContext(debug.Options(MLLogLevel::kDebug));
    BuildAndRun(ctx);
    ctx.destroy();
  }
  CHECK(debug.Find(MLLogLevel::kDebug, "dispatch: ").size() == 1);
  CHECK(debug.Find(MLLogLevel::kInfo, "build: ").size() == 1);
  CHECK(debug.Find(MLLogLevel::kInfo, "context lost (").size() == 1);
  {
    MLContextOptions options = none.Options(MLLogLevel::kNone);
    MLContext ctx = ML::createContext(options);
    BuildAndRun(ctx);
    ctx.destroy();
  }
  CHECK(none.messages.empty());
}

TEST_CASE("log: steps on a fallback device are a warning naming them", "[log][device]") {
  // The device under test "lacks" neg, so that step runs on a fallback device.
  const MLDeviceType device = DeviceUnderTest();
  if (device == MLDeviceType::kReference) return;  // nothing falls back from it to another
  scheduler::ScopedStepFilterForTesting lacks(
      [device](const ops::Device& d, const ops::Program& program, const ops::ProgramStep& step) {
        if (d.type() == device && ops::OpName(step.op) == "neg") return false;
        return scheduler::DeviceRunsStep(d, program, step);
      });
  Log log;
  MLContextOptions options = log.Options(MLLogLevel::kWarning);
  options.graphPasses = false;  // or neg and add become one fusedElementwise step
  MLContext ctx = ML::createContext(options);
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {8}});
  b.build({{"y", b.add(b.neg(x, {.label = "negated"}), x)}});
  const auto warnings = log.Find(MLLogLevel::kWarning, "steps run on a fallback device");
  REQUIRE(warnings.size() == 1);
  INFO(warnings[0]);
  CHECK(warnings[0].find("neg [negated] on ") != std::string::npos);
  CHECK(log.CountAt(MLLogLevel::kInfo) == 0);
}

TEST_CASE("log: a streamed constant's close at info, its chunks at debug", "[log][device]") {
  Log log;
  MLContext ctx = ML::createContext(log.Options(MLLogLevel::kDebug));
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {4}});
  MLGraph g = b.build({{"y", b.mul(x, b.constant(MLConstantDescriptor{F32, {4}, "scale"}))}});
  MLConstantWriter writer = g.writeConstant("scale");
  writer.write(std::vector<float>{1, 2});
  writer.write(std::vector<float>{3, 4});
  writer.close();
  CHECK(log.Find(MLLogLevel::kDebug, "of weightless constant 'scale': 8 bytes, 16 of 16 written").size() == 1);
  CHECK(log.Find(MLLogLevel::kInfo, "'scale': 16 bytes streamed, handed to the " + ctx.deviceName()).size() == 1);
}

TEST_CASE("log: a callback that throws changes nothing", "[log]") {
  int calls = 0;
  MLContext ctx = ML::createContext({.device = MLDeviceType::kCpu,
                                     .logLevel = MLLogLevel::kDebug,
                                     .logCallback = [&](MLLogLevel, std::string_view) {
                                       ++calls;
                                       throw std::runtime_error("a callback's bug");
                                     }});
  BuildAndRun(ctx);
  CHECK(calls >= 3);  // createContext, build, dispatch
}

TEST_CASE("log: without a callback messages go to stderr, and none silences them", "[log]") {
  // stderr goes to a file while the contexts are made.
  std::fflush(stderr);
  char path[] = "/tmp/webnn_log_test_XXXXXX";
  const int file = mkstemp(path);
  REQUIRE(file >= 0);
  const int saved = dup(STDERR_FILENO);
  dup2(file, STDERR_FILENO);
  ML::createContext({.device = MLDeviceType::kCpu, .logLevel = MLLogLevel::kInfo});
  ML::createContext({.device = MLDeviceType::kReference, .logLevel = MLLogLevel::kNone});
  ML::createContext({.device = MLDeviceType::kReference});  // warning: the choice is info
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  close(file);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  INFO(text);
  CHECK(text.find("webnn: info: createContext: the cpu device") != std::string::npos);
  CHECK(text.find("reference") == std::string::npos);
}
