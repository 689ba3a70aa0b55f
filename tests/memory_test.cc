// Memory accounting and the memoryLimit budget (issue 9): memory::PlanArena,
// the budget tripping in each category with a message that says what and why,
// the context usable afterwards, and usage that returns to its baseline.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/shape.h"
#include "io/webnn_graph.h"
#include "memory/arena.h"
#include "memory/host_memory.h"
#include "memory/ledger.h"
#include "memory/workspace.h"
#include "scheduler/thread_pool.h"
#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

namespace {

const MLOperandDataType F32 = MLOperandDataType::kFloat32;

// ---- memory::PlanArena ---------------------------------------------------------

bool RangesOverlap(uint64_t a, uint64_t a_bytes, uint64_t b, uint64_t b_bytes) {
  return a < b + b_bytes && b < a + a_bytes;
}

// No two buffers alive at the same step share a byte; every offset aligned.
void CheckPlan(const std::vector<memory::BufferLifetime>& buffers, const memory::ArenaPlan& plan) {
  REQUIRE(plan.offsets.size() == buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    CHECK(plan.offsets[i] % memory::kArenaAlignment == 0);
    CHECK(plan.offsets[i] + buffers[i].bytes <= plan.total_bytes);
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const bool live_together =
          buffers[i].first_use <= buffers[j].last_use && buffers[j].first_use <= buffers[i].last_use;
      if (live_together)
        CHECK_FALSE(RangesOverlap(plan.offsets[i], buffers[i].bytes, plan.offsets[j], buffers[j].bytes));
    }
  }
}

}  // namespace

TEST_CASE("PlanArena: disjoint lifetimes share memory, overlapping ones do not", "[memory]") {
  SECTION("disjoint") {
    const std::vector<memory::BufferLifetime> b = {{1000, 0, 0}, {1000, 1, 1}, {1000, 2, 2}};
    const memory::ArenaPlan plan = memory::PlanArena(b);
    CheckPlan(b, plan);
    CHECK(plan.total_bytes == 1024);  // one aligned slot, reused three times
    CHECK(plan.offsets == std::vector<uint64_t>{0, 0, 0});
  }
  SECTION("overlapping") {
    const std::vector<memory::BufferLifetime> b = {{1000, 0, 1}, {1000, 1, 2}, {1000, 2, 3}};
    const memory::ArenaPlan plan = memory::PlanArena(b);
    CheckPlan(b, plan);
    // Each overlaps its neighbours only: 0 and 2 may share.
    CHECK(plan.total_bytes == 2048);
    CHECK(plan.offsets[0] == plan.offsets[2]);
    CHECK(plan.offsets[0] != plan.offsets[1]);
  }
  SECTION("all alive at once") {
    const std::vector<memory::BufferLifetime> b = {{100, 0, 5}, {200, 1, 5}, {300, 2, 5}};
    const memory::ArenaPlan plan = memory::PlanArena(b);
    CheckPlan(b, plan);
    CHECK(plan.total_bytes == 128 + 256 + 320);
  }
}

TEST_CASE("PlanArena: offsets are 64-byte aligned whatever the sizes", "[memory]") {
  const std::vector<memory::BufferLifetime> b = {{1, 0, 3}, {65, 0, 3}, {3, 1, 2}, {127, 2, 3}, {0, 0, 3}};
  const memory::ArenaPlan plan = memory::PlanArena(b);
  CheckPlan(b, plan);
  for (uint64_t offset : plan.offsets) CHECK(offset % 64 == 0);
  // 64 + 128 + 64 + 128 + 64 (a zero-byte buffer still gets a slot).
  CHECK(plan.total_bytes <= 448);
}

TEST_CASE("PlanArena: a chain reuses two slots; a freed gap is reused by a smaller buffer", "[memory]") {
  // 11 tensors of 4 MiB, each read by the next step only: 8 MiB (issue 9).
  std::vector<memory::BufferLifetime> chain;
  for (uint32_t i = 0; i < 11; ++i) chain.push_back({uint64_t{4} << 20, i, i + 1});
  const memory::ArenaPlan plan = memory::PlanArena(chain);
  CheckPlan(chain, plan);
  CHECK(plan.total_bytes == uint64_t{8} << 20);

  // Best fit: the 1 KiB buffer goes into the 1 KiB hole, not after the 4 KiB one.
  const std::vector<memory::BufferLifetime> b = {{4096, 0, 3}, {1024, 0, 0}, {1024, 1, 3}, {2048, 1, 3}};
  const memory::ArenaPlan fit = memory::PlanArena(b);
  CheckPlan(b, fit);
  CHECK(fit.total_bytes == 4096 + 1024 + 2048);

  // Random lifetimes: never an overlap of live buffers.
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<memory::BufferLifetime> r;
    for (int i = 0; i < 30; ++i) {
      const uint32_t first = rng() % 20;
      r.push_back({rng() % 5000, first, first + static_cast<uint32_t>(rng() % 6)});
    }
    CheckPlan(r, memory::PlanArena(r));
  }
}

// ---- The budget ----------------------------------------------------------------

namespace {

MLContext LimitedContext(std::optional<uint64_t> limit) {
  // One thread: kernel workspace is then the same from run to run. No passes:
  // the graphs below keep the intermediates they are written with.
  return ML::createContext(
      {.device = DeviceUnderTest(), .numThreads = 1, .graphPasses = false, .memoryLimit = limit});
}

std::vector<std::byte> Floats(size_t n, float v = 0.5f) { return Bytes(std::vector<float>(n, v)); }

MLBufferSource Source(const std::vector<std::byte>& bytes) { return MLBufferSource(std::span<const std::byte>(bytes)); }

// Every category and device, but the gpu's workspace (its staging buffers
// live as long as the device). Host kernel workspace goes with the graph.
void CheckBackToBaseline(const MLMemoryUsage& now, const MLMemoryUsage& baseline) {
  for (size_t d = 0; d < kMLMemoryDeviceCount; ++d)
    for (size_t c = 0; c < kMLMemoryCategoryCount; ++c) {
      if (static_cast<MLMemoryCategory>(c) == MLMemoryCategory::kWorkspace &&
          static_cast<MLMemoryDevice>(d) == MLMemoryDevice::kGpu)
        continue;
      INFO(ToString(static_cast<MLMemoryDevice>(d)) << " " << ToString(static_cast<MLMemoryCategory>(c)));
      CHECK(now.counters[d][c].current == baseline.counters[d][c].current);
    }
}

void CheckPeaks(const MLMemoryUsage& u) {
  for (size_t d = 0; d < kMLMemoryDeviceCount; ++d) {
    uint64_t sum = 0;
    for (size_t c = 0; c < kMLMemoryCategoryCount; ++c) {
      CHECK(u.counters[d][c].peak >= u.counters[d][c].current);
      sum += u.counters[d][c].current;
    }
    CHECK(u.devices[d].current == sum);
    CHECK(u.devices[d].peak >= u.devices[d].current);
  }
  CHECK(u.total.current == u.devices[0].current + u.devices[1].current);
  CHECK(u.total.peak >= u.total.current);
}

// What the tests check after a QuotaExceededError: a small graph still
// builds and runs, and gives the right answer.
void CheckContextStillWorks(MLContext& ctx) {
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {F32, {4}});
  MLGraph g = b.build({{"y", b.relu(x)}});
  MLTensor in = ctx.createTensor({F32, {4}, false, true});
  MLTensor out = ctx.createTensor({F32, {4}, true, false});
  ctx.writeTensor(in, Source(Bytes(std::vector<float>{-1, 2, -3, 4})));
  ctx.dispatch(g, {{"x", in}}, {{"y", out}});
  CHECK(ctx.readTensor(out) == Bytes(std::vector<float>{0, 2, 0, 4}));
}

// Calls `f` once; the message of the QuotaExceededError it must throw.
std::string QuotaMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const QuotaExceededError& e) {
    return e.what();
  } catch (const MLException& e) {
    FAIL_CHECK("expected a QuotaExceededError, got " << e.name() << ": " << e.what());
    return "";
  }
  FAIL_CHECK("expected a QuotaExceededError, nothing was thrown");
  return "";
}

}  // namespace

TEST_CASE("memoryLimit: 0 is a TypeError; unset is unlimited and reported", "[memory][device]") {
  CHECK(ErrorName([] { LimitedContext(0); }) == "TypeError");
  MLContext ctx = LimitedContext(std::nullopt);
  CHECK_FALSE(ctx.memoryUsage().memoryLimit.has_value());
  CHECK(LimitedContext(12345).memoryUsage().memoryLimit == 12345u);
}

TEST_CASE("memoryLimit trips on constants, then the context still works", "[memory][device]") {
  MLContext ctx = LimitedContext(1 << 20);
  const MLMemoryUsage baseline = ctx.memoryUsage();
  const std::vector<std::byte> big = Floats(1 << 19);  // 2 MiB
  std::string message;
  {
    MLGraphBuilder b(ctx);
    message = QuotaMessage([&] { b.constant({F32, {1 << 19}}, Source(big)); });
  }
  CHECK_THAT(message, Catch::Contains("constant") && Catch::Contains("2097152 bytes") &&
                          Catch::Contains("constants (raw)") && Catch::Contains("memoryLimit of 1048576") &&
                          Catch::Contains("in use"));
  CheckBackToBaseline(ctx.memoryUsage(), baseline);
  CheckContextStillWorks(ctx);

  // createConstantTensor is a constant too.
  CHECK_THAT(QuotaMessage([&] { ctx.createConstantTensor({F32, {1 << 19}}, Source(big)); }),
             Catch::Contains("createConstantTensor") && Catch::Contains("constants (raw)"));
  CheckContextStillWorks(ctx);
}

TEST_CASE("memoryLimit trips on a weightless constant's binding", "[memory][device]") {
  MLContext ctx = LimitedContext(1 << 20);
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {F32, {1 << 19}});
  auto w = b.constant(MLConstantDescriptor{F32, {1 << 19}, "w"});
  // Building declares 2 MiB of weights and holds none of them.
  MLGraph g = b.build({{"y", b.add(x, w)}});
  CHECK(ctx.memoryUsage().at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsRaw).current == 0);
  const std::vector<std::byte> big = Floats(1 << 19);
  CHECK_THAT(QuotaMessage([&] { ctx.bindConstants(g, {{"w", Source(big)}}); }),
             Catch::Contains("weightless constant 'w'") && Catch::Contains("constants (raw)"));
  CHECK(g.unboundConstants() == std::vector<std::string>{"w"});
  g.destroy();
  CheckContextStillWorks(ctx);
}

TEST_CASE("memoryLimit trips on intermediates at build", "[memory][device]") {
  MLContext ctx = LimitedContext(1 << 20);
  const MLMemoryUsage baseline = ctx.memoryUsage();
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {F32, {1 << 19}});  // 2 MiB
  auto y = b.sigmoid(b.relu(x));             // relu's output: a 2 MiB intermediate
  CHECK_THAT(QuotaMessage([&] { b.build({{"y", y}}); }),
             Catch::Contains("build") && Catch::Contains("intermediates") && Catch::Contains("2097152 bytes") &&
                 Catch::Contains("memoryLimit of 1048576"));
  CheckBackToBaseline(ctx.memoryUsage(), baseline);
  CheckContextStillWorks(ctx);
}

TEST_CASE("memoryLimit trips on tensors", "[memory][device]") {
  MLContext ctx = LimitedContext(1 << 20);
  MLTensor fits = ctx.createTensor({F32, {1 << 17}, true, true});  // 512 KiB
  CHECK_THAT(QuotaMessage([&] { ctx.createTensor({F32, {1 << 18}, true, true}); }),
             Catch::Contains("createTensor") && Catch::Contains("1048576 bytes of tensors") &&
                 Catch::Contains("memoryLimit of 1048576") && Catch::Contains("524288 bytes in use") &&
                 Catch::Contains(DeviceUnderTest() == MLDeviceType::kGpu ? "tensors on gpu 524288"
                                                                         : "tensors on host 524288"));
  fits.destroy();
  CHECK(ctx.memoryUsage().total.current == 0);
  CheckContextStillWorks(ctx);
}

namespace {

// A gru whose per-run state (the input projection: steps x 3H floats) is
// kernel workspace on cpu; on gpu, dispatch makes the shader parameters and
// scratch buffers.
struct GruGraph {
  MLGraph graph;
  MLNamedTensors inputs, outputs;
};
GruGraph BuildGru(MLContext& ctx) {
  const uint32_t steps = 32, batch = 1, input_size = 64, hidden = 128;
  MLGraphBuilder b(ctx);
  auto x = b.input("x", {F32, {steps, batch, input_size}});
  auto w = b.constant({F32, {1, 3 * hidden, input_size}}, Source(Floats(3 * hidden * input_size, 0.01f)));
  auto r = b.constant({F32, {1, 3 * hidden, hidden}}, Source(Floats(3 * hidden * hidden, 0.01f)));
  GruGraph g;
  g.graph = b.build({{"h", b.gru(x, w, r, steps, hidden)[0]}});
  MLTensor in = ctx.createTensor({F32, {steps, batch, input_size}, false, true});
  ctx.writeTensor(in, Source(Floats(steps * batch * input_size)));
  g.inputs = {{"x", in}};
  g.outputs = {{"h", ctx.createTensor({F32, {1, batch, hidden}, true, false})}};
  return g;
}

// Runs `f` on a thread of its own, as a fresh program's dispatching thread.
template <typename F>
void OnFreshThread(F&& f) {
  std::exception_ptr error;
  std::thread t([&] {
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
  });
  t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace

// A filter that is not a constant is packed per dispatch: that memory is the
// dispatch's workspace too.
TEST_CASE("kernel workspace: a conv2d filter packed per dispatch is counted", "[memory][device]") {
  if (DeviceUnderTest() != MLDeviceType::kCpu) return;  // the cpu kernels pack filters
  const uint32_t c = 64;
  const std::vector<std::byte> filter = Floats(c * c * 9);
  // The workspace peak of one dispatch, with the filter a constant or an input.
  auto workspace_peak = [&](bool constant_filter) {
    MLContext ctx = LimitedContext(std::nullopt);
    MLGraphBuilder b(ctx);
    auto x = b.input("x", {F32, {1, c, 8, 8}});
    auto w = constant_filter ? b.constant({F32, {c, c, 3, 3}}, Source(filter)) : b.input("w", {F32, {c, c, 3, 3}});
    MLGraph graph = b.build({{"y", b.conv2d(x, w)}});
    MLNamedTensors inputs{{"x", ctx.createTensor({F32, {1, c, 8, 8}, false, true})}};
    ctx.writeTensor(inputs["x"], Source(Floats(c * 64)));
    if (!constant_filter) {
      inputs["w"] = ctx.createTensor({F32, {c, c, 3, 3}, false, true});
      ctx.writeTensor(inputs["w"], Source(filter));
    }
    MLTensor y = ctx.createTensor({F32, {1, c, 6, 6}, true, false});
    ctx.dispatch(graph, inputs, {{"y", y}});
    ctx.readTensor(y);
    return ctx.memoryUsage().at(MLMemoryDevice::kHost, MLMemoryCategory::kWorkspace).peak;
  };
  CHECK(workspace_peak(false) >= workspace_peak(true) + filter.size());
}

TEST_CASE("memoryLimit trips on kernel workspace at dispatch", "[memory][device]") {
  bool supported = true;
  uint64_t before = 0, build_peak = 0, peak = 0;
  OnFreshThread([&] {
    MLContext ctx = LimitedContext(std::nullopt);
    supported = RunUnlessUnsupported(DeviceUnderTest(), "gru (memory test)", [&] {
      GruGraph g = BuildGru(ctx);
      before = ctx.memoryUsage().total.current;
      // Build may peak above what stays (the gpu frees its host copies of
      // constants once uploaded).
      build_peak = ctx.memoryUsage().total.peak;
      ctx.dispatch(g.graph, g.inputs, g.outputs);
      const MLMemoryUsage u = ctx.memoryUsage();
      CheckPeaks(u);
      const bool gpu = DeviceUnderTest() == MLDeviceType::kGpu;
      CHECK(u.at(gpu ? MLMemoryDevice::kGpu : MLMemoryDevice::kHost, MLMemoryCategory::kWorkspace).peak > 0);
      peak = u.total.peak;
    });
  });
  if (!supported) return;
  REQUIRE(peak > before);
  // Room for the build and everything up to the dispatch, not for the
  // workspace it needs.
  const uint64_t limit = std::max(build_peak, before + (peak - before) / 2);
  if (limit >= peak) {
    // gpu: the build's peak (host copies of the constants while they upload)
    // is above what the dispatch adds, so no limit admits the build and not
    // the workspace.
    WARN("on " << DeviceUnderTestName() << " the build peaks above the dispatch's workspace: nothing to trip");
    return;
  }
  OnFreshThread([&] {
    MLContext ctx = LimitedContext(limit);
    GruGraph g = BuildGru(ctx);
    // dispatch() queues the run; its error reaches the read of its output.
    CHECK_THAT(QuotaMessage([&] {
                 ctx.dispatch(g.graph, g.inputs, g.outputs);
                 for (const auto& [name, t] : g.outputs) ctx.readTensor(t);
               }),
               Catch::Contains("bytes of workspace") && Catch::Contains("memoryLimit of"));
    g = {};
    CheckContextStillWorks(ctx);
  });
  OnFreshThread([&] {
    // At the limit the first context reported needing, it runs.
    MLContext ctx = LimitedContext(peak);
    GruGraph g = BuildGru(ctx);
    ctx.dispatch(g.graph, g.inputs, g.outputs);
    CHECK(ctx.memoryUsage().total.peak <= peak);
  });
}

TEST_CASE("memoryLimit trips on staging (one operand given as two outputs)", "[memory][device]") {
  auto build = [](MLContext& ctx, MLGraph& g, MLNamedTensors& ins, MLNamedTensors& outs) {
    MLGraphBuilder b(ctx);
    auto x = b.input("x", {F32, {1 << 16}});
    auto y = b.relu(x);
    g = b.build({{"a", y}, {"b", y}});
    ins = {{"x", ctx.createTensor({F32, {1 << 16}, false, true})}};
    outs = {{"a", ctx.createTensor({F32, {1 << 16}, true, false})}, {"b", ctx.createTensor({F32, {1 << 16}, true, false})}};
  };
  uint64_t before = 0, after = 0;
  {
    MLContext ctx = LimitedContext(std::nullopt);
    MLGraph g;
    MLNamedTensors ins, outs;
    build(ctx, g, ins, outs);
    ctx.dispatch(g, ins, outs);  // once, so that the next dispatch needs no new workspace
    before = ctx.memoryUsage().total.current;
    ctx.resetPeakMemory();
    ctx.dispatch(g, ins, outs);
    const MLMemoryUsage u = ctx.memoryUsage();
    CHECK(u.at(MLMemoryDevice::kHost, MLMemoryCategory::kStaging).peak == 4u << 16);
    CHECK(u.at(MLMemoryDevice::kHost, MLMemoryCategory::kStaging).current == 0);
    after = u.total.peak;
  }
  REQUIRE(after == before + (4u << 16));
  MLContext ctx = LimitedContext(before + (2u << 16));
  MLGraph g;
  MLNamedTensors ins, outs;
  build(ctx, g, ins, outs);
  CHECK_THAT(QuotaMessage([&] {
               ctx.dispatch(g, ins, outs);
               ctx.dispatch(g, ins, outs);
               for (const auto& [name, t] : outs) ctx.readTensor(t);  // the run's error surfaces here
             }),
             Catch::Contains("dispatch") && Catch::Contains("262144 bytes of staging"));
  g.destroy();
  for (auto* named : {&ins, &outs})
    for (auto& [name, t] : *named) t.destroy();
  CheckContextStillWorks(ctx);
}

TEST_CASE("memoryUsage: peaks bound the current bytes, which return to the baseline", "[memory][device]") {
  MLContext ctx = LimitedContext(std::nullopt);
  const MLMemoryUsage baseline = ctx.memoryUsage();
  CHECK(baseline.total.current == 0);
  const bool gpu = DeviceUnderTest() == MLDeviceType::kGpu;
  const MLMemoryDevice place = gpu ? MLMemoryDevice::kGpu : MLMemoryDevice::kHost;
  {
    MLGraphBuilder b(ctx);
    auto x = b.input("x", {F32, {64, 64}});
    auto w = b.constant({F32, {64, 64}}, Source(Floats(64 * 64, 0.25f)));
    auto y = b.relu(b.matmul(b.relu(x), w));
    MLGraph g = b.build({{"y", y}});
    MLTensor in = ctx.createTensor({F32, {64, 64}, false, true});
    MLTensor out = ctx.createTensor({F32, {64, 64}, true, false});
    ctx.writeTensor(in, Source(Floats(64 * 64)));
    ctx.dispatch(g, {{"x", in}}, {{"y", out}});
    const MLMemoryUsage u = ctx.memoryUsage();
    CheckPeaks(u);
    // The builder's copy of w on the host, except where the device holds its
    // own copy (cpu: packed, gpu: uploaded) and the raw bytes are freed.
    const bool own_copy = DeviceUnderTest() != MLDeviceType::kReference;
    CHECK(u.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsRaw).current == (own_copy ? 0 : 4 * 64 * 64));
    if (gpu) CHECK(u.at(MLMemoryDevice::kGpu, MLMemoryCategory::kConstantsRaw).current == 4 * 64 * 64);
    if (DeviceUnderTest() == MLDeviceType::kCpu)
      CHECK(u.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsPacked).current >= 4 * 64 * 64);
    CHECK(u.at(place, MLMemoryCategory::kTensors).current == 2 * 4 * 64 * 64);
    CHECK(u.at(place, MLMemoryCategory::kIntermediates).current == g.memoryPlan().arenaBytes);
    CHECK(g.memoryPlan().arenaBytes >= 4 * 64 * 64);
    CHECK(g.memoryPlan().arenaBytes <= g.memoryPlan().intermediateBytes + 64 * g.memoryPlan().intermediateCount);

    // The process-wide host counter holds at least this context's host bytes.
    in.destroy();
    CHECK(ctx.memoryUsage().at(place, MLMemoryCategory::kTensors).current == 4 * 64 * 64);
  }
  CheckBackToBaseline(ctx.memoryUsage(), baseline);
  const MLMemoryUsage end = ctx.memoryUsage();
  CHECK(end.total.peak > 0);
  ctx.resetPeakMemory();
  CHECK(ctx.memoryUsage().total.peak == ctx.memoryUsage().total.current);
}

// ---- Streaming constants (webnn#901) ----------------------------------------------

namespace {

// x[2, K] times a chain of `layers` weightless K x K weights w0, w1, ...
MLGraph MatmulChain(MLContext& ctx, uint32_t k, int layers) {
  MLGraphBuilder b(ctx);
  MLOperand y = b.input("x", {F32, {2, k}});
  for (int i = 0; i < layers; ++i)
    y = b.matmul(y, b.constant(MLConstantDescriptor{F32, {k, k}, "w" + std::to_string(i)}));
  return b.build({{"y", y}});
}

std::vector<float> Weight(uint32_t k, int layer) {
  std::vector<float> w(size_t{k} * k);
  std::mt19937 rng(100 + layer);
  std::uniform_real_distribution<float> dist(-1.0f / k, 1.0f / k);
  for (float& v : w) v = dist(rng);
  return w;
}

std::vector<std::byte> RunChain(MLContext& ctx, const MLGraph& g, uint32_t k) {
  std::vector<float> x(2 * k);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.0f;
  MLTensor in = ctx.createTensor({F32, {2, k}, false, true});
  MLTensor out = ctx.createTensor({F32, {2, k}, true, false});
  ctx.writeTensor(in, Source(Bytes(x)));
  ctx.dispatch(g, {{"x", in}}, {{"y", out}});
  return ctx.readTensor(out);
}

// Streams weight `layer` in chunks of random sizes. Throws instead of
// CHECKing: it runs on several threads at once, and Catch's assertions are
// not thread-safe (scripts/tsan.sh found that race).
void Stream(MLGraph& g, uint32_t k, int layer, uint32_t seed) {
  const std::vector<std::byte> bytes = Bytes(Weight(k, layer));
  MLConstantWriter w = g.writeConstant("w" + std::to_string(layer));
  if (w.byteLength() != bytes.size()) throw std::runtime_error("Stream: byteLength is not the weight's size");
  std::mt19937 rng(seed);
  for (size_t at = 0; at < bytes.size();) {
    const size_t n = std::min<size_t>(bytes.size() - at, 1 + rng() % 20000);
    w.write(MLBufferSource(std::span<const std::byte>(bytes).subspan(at, n)));
    at += n;
  }
  if (w.bytesWritten() != bytes.size()) throw std::runtime_error("Stream: bytesWritten is not the weight's size");
  w.close();
}

// Host devices hold a streamed weight whole until they pack it; the gpu
// uploads chunk by chunk, and its writers never wait (constantStagingLimit).
bool WritersWait() { return DeviceUnderTest() != MLDeviceType::kGpu; }

}  // namespace

TEST_CASE("MLConstantWriter: streamed weights give the bound weights' results; packed ones leave no raw bytes",
          "[memory][streaming][device]") {
  const uint32_t k = 96;
  MLContext ctx = LimitedContext(std::nullopt);
  MLGraph bound = MatmulChain(ctx, k, 3);
  for (int i = 0; i < 3; ++i) ctx.bindConstants(bound, {{"w" + std::to_string(i), Source(Bytes(Weight(k, i)))}});
  const std::vector<std::byte> expected = RunChain(ctx, bound, k);
  bound.destroy();

  const MLMemoryUsage before = ctx.memoryUsage();
  MLGraph g = MatmulChain(ctx, k, 3);
  Stream(g, k, 0, 1);
  // Partial binding: dispatch is refused until every constant has data.
  CHECK(g.unboundConstants() == std::vector<std::string>{"w1", "w2"});
  CHECK(ErrorName([&] { RunChain(ctx, g, k); }) == "InvalidStateError");
  Stream(g, k, 1, 2);
  Stream(g, k, 2, 3);
  CHECK(g.unboundConstants().empty());
  CHECK(RunChain(ctx, g, k) == expected);
  // A device that packs the weights (cpu) keeps no raw copy of them.
  const MLMemoryUsage after = ctx.memoryUsage();
  const auto raw = [](const MLMemoryUsage& u) {
    return u.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsRaw).current +
           u.at(MLMemoryDevice::kGpu, MLMemoryCategory::kConstantsRaw).current;
  };
  if (after.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsPacked).current >
      before.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsPacked).current)
    CHECK(raw(after) == raw(before));
  else
    CHECK(raw(after) == raw(before) + 3 * uint64_t{k} * k * 4);
}

TEST_CASE("MLConstantWriter: misuse gets DataError, InvalidStateError or TypeError, and the constant stays usable",
          "[memory][streaming][device]") {
  const uint32_t k = 8;
  MLContext ctx = LimitedContext(std::nullopt);
  MLGraph g = MatmulChain(ctx, k, 2);
  const std::vector<std::byte> w0 = Bytes(Weight(k, 0));
  const auto chunk = [&](size_t at, size_t n) { return MLBufferSource(std::span<const std::byte>(w0).subspan(at, n)); };

  CHECK_THAT(ErrorText([&] { g.writeConstant("nope"); }),
             Catch::Contains("DataError") && Catch::Contains("'nope'") && Catch::Contains("'w0', 'w1'"));
  MLConstantWriter w = g.writeConstant("w0");
  // One writer per constant, and no whole-buffer binding meanwhile.
  CHECK(ErrorName([&] { g.writeConstant("w0"); }) == "InvalidStateError");
  CHECK(ErrorName([&] { g.setConstantData("w0", Source(w0)); }) == "InvalidStateError");
  // The chunk's view type must suit float32.
  CHECK(ErrorName([&] { w.write(std::vector<int32_t>{1, 2}); }) == "TypeError");
  w.write(chunk(0, 100));
  CHECK_THAT(ErrorText([&] { w.write(chunk(0, w0.size())); }),
             Catch::Contains("DataError") && Catch::Contains("256") && Catch::Contains("100 written"));
  CHECK_THAT(ErrorText([&] { w.close(); }), Catch::Contains("DataError") && Catch::Contains("100 of"));
  w.write(chunk(100, w0.size() - 100));  // still open after both errors
  w.close();
  CHECK(ErrorName([&] { w.write(chunk(0, 4)); }) == "InvalidStateError");
  CHECK(ErrorName([&] { w.close(); }) == "InvalidStateError");
  CHECK(ErrorName([&] { g.writeConstant("w0"); }) == "InvalidStateError");  // bound once
  CHECK(ErrorName([&] { ctx.bindConstants(g, {{"w0", Source(w0)}}); }) == "InvalidStateError");

  // An aborted writer, or one dropped unclosed, leaves the constant unbound.
  const std::vector<std::byte> w1 = Bytes(Weight(k, 1));
  {
    MLConstantWriter dropped = g.writeConstant("w1");
    dropped.write(MLBufferSource(std::span<const std::byte>(w1).subspan(0, 8)));
  }
  MLConstantWriter aborted = g.writeConstant("w1");
  aborted.abort();
  CHECK(ErrorName([&] { aborted.write(MLBufferSource(std::span<const std::byte>(w1))); }) == "InvalidStateError");
  CHECK(g.unboundConstants() == std::vector<std::string>{"w1"});
  MLConstantWriter last = g.writeConstant("w1");
  last.write(MLBufferSource(std::span<const std::byte>(w1)));
  last.close();
  CHECK(RunChain(ctx, g, k).size() == 2 * k * 4);

  // After the graph is destroyed a writer refuses work.
  MLGraph h = MatmulChain(ctx, k, 1);
  MLConstantWriter orphan = h.writeConstant("w0");
  h.destroy();
  CHECK(ErrorName([&] { orphan.write(chunk(0, 4)); }) == "InvalidStateError");
  CHECK(ErrorName([] { MLConstantWriter().write(MLBufferSource()); }) == "InvalidStateError");
  CheckContextStillWorks(ctx);
}

TEST_CASE("MLConstantWriter: backpressure admits writers while their raw bytes fit the staging limit",
          "[memory][streaming][device]") {
  const uint32_t k = 64;  // 16 KiB weights
  const uint64_t weight_bytes = uint64_t{k} * k * 4;
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .numThreads = 1, .graphPasses = false,
                                     .constantStagingLimit = weight_bytes});
  MLGraph g = MatmulChain(ctx, k, 3);
  const std::vector<std::byte> w0 = Bytes(Weight(k, 0)), w1 = Bytes(Weight(k, 1));
  MLConstantWriter a = g.writeConstant("w0");
  MLConstantWriter b = g.writeConstant("w1");
  CHECK(a.ready());
  CHECK(b.ready());
  a.write(MLBufferSource(std::span<const std::byte>(w0).subspan(0, 64)));
  if (WritersWait()) {
    // a holds the whole budget: b would wait, and on this thread it never
    // could, so write() says so instead of hanging.
    CHECK_FALSE(b.ready());
    CHECK_THAT(ErrorText([&] { b.write(MLBufferSource(std::span<const std::byte>(w1).subspan(0, 64))); }),
               Catch::Contains("InvalidStateError") && Catch::Contains("this thread's own open writers"));
  }
  a.write(MLBufferSource(std::span<const std::byte>(w0).subspan(64)));
  a.close();
  CHECK(b.ready());  // a's bytes were packed or handed over: the budget is free
  b.write(MLBufferSource(std::span<const std::byte>(w1)));
  b.close();
  Stream(g, k, 2, 9);
  CHECK(RunChain(ctx, g, k).size() == 2 * k * 4);
}

TEST_CASE("MLConstantWriter: 8 threads stream 8 weights through a 2-weight staging limit",
          "[memory][streaming][device]") {
  const uint32_t k = 128;  // 64 KiB weights
  const uint64_t weight_bytes = uint64_t{k} * k * 4;
  const int layers = 8;
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .numThreads = 1, .graphPasses = false,
                                     .constantStagingLimit = 2 * weight_bytes});
  MLGraph bound = MatmulChain(ctx, k, layers);
  for (int i = 0; i < layers; ++i)
    ctx.bindConstants(bound, {{"w" + std::to_string(i), Source(Bytes(Weight(k, i)))}});
  const std::vector<std::byte> expected = RunChain(ctx, bound, k);
  bound.destroy();

  const MLMemoryUsage before = ctx.memoryUsage();
  ctx.resetPeakMemory();
  MLGraph g = MatmulChain(ctx, k, layers);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < layers; ++i)
    threads.emplace_back([&, i] {
      try {
        Stream(g, k, i, 50 + i);
      } catch (...) {
        ++failures;
      }
    });
  for (std::thread& t : threads) t.join();
  CHECK(failures == 0);
  CHECK(g.unboundConstants().empty());
  CHECK(RunChain(ctx, g, k) == expected);
  // Where the device packs what it streams (cpu), at most the staging limit
  // of raw bytes was ever held at once.
  const MLMemoryUsage after = ctx.memoryUsage();
  const auto& raw = after.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsRaw);
  if (WritersWait() && raw.current == before.at(MLMemoryDevice::kHost, MLMemoryCategory::kConstantsRaw).current)
    CHECK(raw.peak <= raw.current + 2 * weight_bytes);
}

TEST_CASE("MLConstantWriter: packing over the memory limit fails close(); the writer keeps its bytes",
          "[memory][streaming][device]") {
  const uint32_t k = 256;  // 256 KiB weight
  const uint64_t weight_bytes = uint64_t{k} * k * 4;
  // Room for the raw weight, not for a packed copy beside it.
  MLContext ctx = LimitedContext(weight_bytes + weight_bytes / 2);
  MLGraph g = MatmulChain(ctx, k, 1);
  const std::vector<std::byte> w0 = Bytes(Weight(k, 0));
  MLConstantWriter w = g.writeConstant("w0");
  w.write(Source(w0));
  const std::string error = ErrorText([&] { w.close(); });
  if (!error.empty()) {
    // A device that packs (cpu): the limit trips on the packed copy, the
    // constant stays without data, and the writer can still be aborted.
    CHECK_THAT(error, Catch::Contains("QuotaExceededError") && Catch::Contains("constants (packed)") &&
                          Catch::Contains("packing the weights of matmul"));
    CHECK(g.unboundConstants() == std::vector<std::string>{"w0"});
    CHECK(w.bytesWritten() == weight_bytes);
    CHECK_THAT(ErrorText([&] { w.close(); }), Catch::Contains("QuotaExceededError"));  // same again, no crash
    w.abort();
    CHECK(ErrorName([&] { RunChain(ctx, g, k); }) == "InvalidStateError");
  } else {
    CHECK(RunChain(ctx, g, k).size() == 2 * k * 4);
  }
  g.destroy();
  CheckContextStillWorks(ctx);
}

TEST_CASE("weightless graphs declaring 107 GB of constants build without allocating them", "[memory][streaming][device]") {
  MLContext ctx = LimitedContext(64 << 20);
  const MLMemoryUsage baseline = ctx.memoryUsage();
  MLGraphBuilder b(ctx);
  // A tensor holds at most 2 GiB (maxTensorByteLength): 50 weights of 2 GiB.
  auto x = b.input("x", {F32, {1, 32768}});
  std::optional<MLOperand> y;
  for (int i = 0; i < 50; ++i) {
    MLOperand p = b.matmul(x, b.constant(MLConstantDescriptor{F32, {32768, 16384}, "w" + std::to_string(i)}));
    y = y ? b.add(*y, p) : p;
  }
  MLGraph g = b.build({{"y", *y}});
  CHECK(ctx.memoryUsage().total.current < 64 << 20);
  CHECK(g.unboundConstants().size() == 50);
  MLConstantWriter writer = g.writeConstant("w7");
  CHECK(writer.byteLength() == 2147483648ull);
  CHECK_THAT(QuotaMessage([&] { writer.write(std::vector<float>{1, 2}); }),
             Catch::Contains("weightless constant 'w7'") && Catch::Contains("2147483648 bytes") &&
                 Catch::Contains("constants (raw)"));
  writer.abort();
  g.destroy();
  CheckBackToBaseline(ctx.memoryUsage(), baseline);
  CheckContextStillWorks(ctx);
}

// ---- A real model --------------------------------------------------------------

TEST_CASE("memoryLimit: PP-OCR det runs at the limit it reports needing and fails cleanly 10% below", "[memory][models]") {
  const std::filesystem::path dir = std::filesystem::path(WEBNN_TEST_BUILD_DIR) / "models";
  const std::filesystem::path det = dir / "det.json";
  if (!std::filesystem::exists(det)) {
    WARN("skipped: " << det.string() << " is absent (meson test --suite models, or scripts/models.sh, converts it)");
    return;
  }
  // Load, build, one dispatch; returns the peak bytes the context reports.
  auto run = [&](std::optional<uint64_t> limit) {
    uint64_t peak = 0;
    OnFreshThread([&] {
      MLContext ctx = ML::createContext({.device = MLDeviceType::kCpu, .numThreads = 1, .memoryLimit = limit});
      try {
        io::LoadedGraph g = io::LoadGraphFile(ctx, det.string(), {});
        MLNamedTensors ins, outs;
        for (const auto& [name, desc] : g.inputs) {
          std::vector<uint32_t> shape;
          for (const MLDimension& d : desc.shape) shape.push_back(static_cast<uint32_t>(d.size()));
          ins[name] = ctx.createTensor({desc.dataType, shape, false, true});
          ctx.writeTensor(ins[name], Source(Floats(core::ElementCount(shape), 0.1f)));
        }
        for (const auto& [name, desc] : g.outputs) {
          std::vector<uint32_t> shape;
          for (const MLDimension& d : desc.shape) shape.push_back(static_cast<uint32_t>(d.size()));
          outs[name] = ctx.createTensor({desc.dataType, shape, true, false});
        }
        ctx.dispatch(g.graph, ins, outs);
        for (const auto& [name, t] : outs) ctx.readTensor(t);
        peak = ctx.memoryUsage().total.peak;
      } catch (const QuotaExceededError&) {
        // Nothing leaks: once the handles are gone (the graph's kernel
        // workspace with it) the context holds nothing, and a small graph runs.
        CHECK(ctx.memoryUsage().total.current == 0);
        CheckContextStillWorks(ctx);
        throw;
      }
    });
    return peak;
  };
  const uint64_t needed = run(std::nullopt);
  REQUIRE(needed > 0);
  WARN("PP-OCR det on cpu needs memoryLimit " << needed << " bytes");
  CHECK(run(needed) == needed);
  const uint64_t below = needed - needed / 10;
  try {
    run(below);
    FAIL("det ran with memoryLimit " << below << ", 10% below the " << needed << " bytes it reported needing");
  } catch (const QuotaExceededError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("memoryLimit of " + std::to_string(below)) &&
                                          Catch::Contains("bytes in use"));
  }
}

// ---- Reading tensors back ---------------------------------------------------------

TEST_CASE("CopyOut copies every byte: small, split over threads, streamed, misaligned ends", "[memory]") {
  scheduler::ThreadPool pool(2);
  core::SerialFor serial;
  std::mt19937_64 rng(5);
  // Around the split (1 MiB) and streaming (8 MiB) thresholds, with odd
  // lengths and offsets so that neither end is on a 16-byte boundary.
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, (size_t{1} << 20) - 1, (size_t{1} << 20) + 3,
                   (size_t{8} << 20) + 77, (size_t{9} << 20) + 4099}) {
    for (size_t offset : {size_t{0}, size_t{5}}) {
      std::vector<std::byte> src(n + offset), dst(n + offset + 16, std::byte{0xAB});
      for (auto& b : src) b = static_cast<std::byte>(rng());
      for (core::ParallelFor* parallel : std::vector<core::ParallelFor*>{&serial, &pool}) {
        INFO("n " << n << " offset " << offset << " threads " << parallel->NumThreads());
        std::fill(dst.begin(), dst.end(), std::byte{0xAB});
        memory::CopyOut(dst.data() + offset, src.data() + offset, n, *parallel);
        CHECK(std::equal(src.begin() + offset, src.end(), dst.begin() + offset));
        // Nothing outside [offset, offset + n) was written.
        CHECK(std::all_of(dst.begin(), dst.begin() + offset, [](std::byte b) { return b == std::byte{0xAB}; }));
        CHECK(std::all_of(dst.begin() + offset + n, dst.end(), [](std::byte b) { return b == std::byte{0xAB}; }));
      }
    }
  }
}

// ---- Workspace errors on worker threads -------------------------------------------

TEST_CASE("thread pool: an exception in a worker's chunk reaches Run's caller; the pool keeps working",
          "[memory]") {
  scheduler::ThreadPool pool(2);
  std::atomic<size_t> done{0};
  // Every chunk but the first throws: the workers' ones must not terminate
  // the process (a workspace over memoryLimit throws there).
  CHECK(ErrorName([&] {
          pool.Run(64, 1, [&](size_t begin, size_t) {
            if (begin != 0) throw QuotaExceededError("kernel scratch: over the limit");
            done += 1;
          });
        }) == "QuotaExceededError");
  std::atomic<size_t> sum{0};
  pool.Run(64, 1, [&](size_t begin, size_t end) { sum += end - begin; });
  CHECK(sum == 64);
  // The caller's workspace is the workers' while they run its chunks, each
  // chunk on a slot no other running chunk holds.
  auto ledger = std::make_shared<memory::Ledger>("test limit", 0, nullptr);
  memory::WorkspaceSize size;
  size.AddShared<float>(16);
  size.AddPerWorker<float>(32);  // a and b below: two pieces, declared as two
  size.AddPerWorker<float>(32);
  memory::Workspace workspace(size, pool.NumThreads(), {ledger, memory::Category::kWorkspace});
  CHECK(ledger->Snapshot().at(memory::Place::kHost, memory::Category::kWorkspace).current ==
        size.shared + size.per_worker * pool.NumThreads());
  memory::WorkspaceScope scope(&workspace);
  const memory::Scratch<float> mine(16, "test: the dispatching thread's");
  std::atomic<size_t> elsewhere{0}, overlapping{0};
  for (int round = 0; round < 20; ++round)
    pool.Run(64, 1, [&](size_t begin, size_t) {
      if (memory::CurrentWorkspace() != &workspace) elsewhere += 1;
      const memory::Scratch<float> a(32, "test: a"), b(32, "test: b");
      // Another chunk writing the same floats at the same time would show.
      for (size_t i = 0; i < 32; ++i) a[i] = b[i] = static_cast<float>(begin);
      std::this_thread::yield();
      for (size_t i = 0; i < 32; ++i)
        if (a[i] != static_cast<float>(begin) || b[i] != static_cast<float>(begin) || a.data() + 32 > b.data())
          overlapping += 1;
    });
  CHECK(elsewhere == 0);
  CHECK(overlapping == 0);
  CHECK(memory::CurrentWorkspace() == &workspace);
}

TEST_CASE("kernel workspace: taking more than the step declared is an OperationError naming it", "[memory]") {
  memory::WorkspaceSize size;
  size.AddShared<float>(16);
  size.AddPerWorker<float>(16);
  memory::Workspace workspace(size, 1, {});
  memory::WorkspaceScope scope(&workspace);
  {
    const memory::Scratch<float> a(16, "test: a");
    const memory::Scratch<float> b(16, "test: b");  // slot 0 holds the shared bytes and a worker's
    try {
      const memory::Scratch<float> c(1, "test: c");
      FAIL("took more than declared");
    } catch (const OperationError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains("test: c") && Catch::Contains("declared"));
    }
  }
  // Given back in stack order: all of it is free again.
  CHECK_NOTHROW(memory::Scratch<float>(32, "test: all"));
}
