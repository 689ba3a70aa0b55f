// The scheduler: asynchronous dispatch on the context's timeline, the latency
// and throughput queues, concurrency and destruction while work is in flight.
// On the device under test (--device). No test asserts a time: speed is
// measured by `webnn mix` (bench/mix/).
#include <atomic>
#include <chrono>
#include <thread>

#include <catch2/catch.hpp>

#include "scheduler/cpu_threads.h"
#include "test_util.h"
#include "webnn/webnn.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr auto F32 = MLOperandDataType::kFloat32;

MLContext SchedulerContext(MLContextOptions options = {}) {
  options.device = DeviceUnderTest();
  return ML::createContext(options);
}

MLTensor Input(MLContext& ctx, std::vector<uint32_t> shape) {
  return ctx.createTensor({.dataType = F32, .shape = std::move(shape), .writable = true});
}
MLTensor Output(MLContext& ctx, std::vector<uint32_t> shape) {
  return ctx.createTensor({.dataType = F32, .shape = std::move(shape), .readable = true});
}

std::vector<float> Read(MLContext& ctx, const MLTensor& t) { return FromBytes<float>(ctx.readTensor(t)); }

// y = x * 2 + 1 over n values, through a few ops (several op boundaries).
MLGraph AffineGraph(MLContext& ctx, std::vector<uint32_t> shape, const MLGraphOptions& options = {}) {
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, std::vector<MLDimension>(shape.begin(), shape.end())});
  MLOperand two = b.constant(F32, MLNumber(2.0));
  MLOperand one = b.constant(F32, MLNumber(1.0));
  return b.build({{"y", b.add(b.mul(x, two), one)}}, options);
}

// A graph with real work: a 256x256 matmul chain (long enough for several
// parallel-for chunks and op boundaries on cpu).
MLGraph MatmulChain(MLContext& ctx, uint32_t n, int depth) {
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {n, n}});
  std::vector<float> w(size_t{n} * n);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 7919) % 17) / 64.0f - 0.125f;
  MLOperand weight = b.constant({F32, {n, n}}, MLBufferSource(std::span<const float>(w)));
  MLOperand y = x;
  for (int d = 0; d < depth; ++d) y = b.tanh(b.matmul(y, weight));
  return b.build({{"y", y}});
}

std::vector<float> Ramp(size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(static_cast<int>(i % 41) - 20) / 20.0f;
  return v;
}

}  // namespace

TEST_CASE("timeline: reads see the dispatch before them, writes wait for the reads before them",
          "[scheduler][timeline]") {
  MLContext ctx = SchedulerContext();
  MLGraph g = AffineGraph(ctx, {64});
  MLTensor x = Input(ctx, {64});
  MLTensor y = Output(ctx, {64});
  MLTensor z = ctx.createTensor({.dataType = F32, .shape = {64}, .readable = true, .writable = true});
  // A chain through z: each dispatch reads what the one before wrote.
  ctx.writeTensor(x, (std::vector<float>(64, 1.0f)));
  ctx.dispatch(g, {{"x", x}}, {{"y", z}});          // z = 3
  MLGraph g2 = AffineGraph(ctx, {64});
  ctx.dispatch(g2, {{"x", z}}, {{"y", y}});         // y = 7, after z's writer
  ctx.writeTensor(x, (std::vector<float>(64, 100.0f)));  // after the first dispatch read x
  CHECK(Read(ctx, y) == std::vector<float>(64, 7.0f));
  CHECK(Read(ctx, z) == std::vector<float>(64, 3.0f));
  // writeTensor of a tensor a queued dispatch reads: the dispatch sees the
  // old contents, the next one the new.
  ctx.writeTensor(x, (std::vector<float>(64, 0.0f)));
  for (int k = 0; k < 20; ++k) {
    ctx.dispatch(g, {{"x", x}}, {{"y", z}});
    ctx.writeTensor(x, (std::vector<float>(64, static_cast<float>(k + 1))));
    ctx.dispatch(g2, {{"x", z}}, {{"y", y}});
    // y = 2 * (2 * k + 1) + 1
    CHECK(Read(ctx, y) == std::vector<float>(64, static_cast<float>(4 * k + 3)));
  }
  // The future and callback forms give the same bytes.
  std::future<std::vector<std::byte>> f = ctx.readTensorAsync(y);
  std::promise<std::vector<std::byte>> p;
  ctx.readTensorAsync(y, [&](std::vector<std::byte> bytes, std::exception_ptr error) {
    if (error) p.set_exception(error);
    else p.set_value(std::move(bytes));
  });
  CHECK(FromBytes<float>(f.get()) == Read(ctx, y));
  CHECK(FromBytes<float>(p.get_future().get()) == Read(ctx, y));
  ctx.finish();
}

TEST_CASE("timeline: a dispatch on the latency queue does not reorder work on shared tensors",
          "[scheduler][timeline]") {
  MLContext ctx = SchedulerContext();
  MLGraph bulk = MatmulChain(ctx, 128, 4);
  MLGraph quick = AffineGraph(ctx, {128, 128}, {.latencyHint = MLLatencyHint::kLow});
  MLTensor x = Input(ctx, {128, 128});
  MLTensor mid = ctx.createTensor({.dataType = F32, .shape = {128, 128}, .readable = true, .writable = true});
  MLTensor y = Output(ctx, {128, 128});
  ctx.writeTensor(x, (Ramp(128 * 128)));
  ctx.dispatch(bulk, {{"x", x}}, {{"y", mid}});
  // Latency work that reads the throughput job's output still runs after it.
  ctx.dispatch(quick, {{"x", mid}}, {{"y", y}}, {.deadline = std::chrono::milliseconds(5)});
  const std::vector<float> got = Read(ctx, y);
  const std::vector<float> m = Read(ctx, mid);
  for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == m[i] * 2.0f + 1.0f);
}

TEST_CASE("8 threads dispatching one graph concurrently give the serial run's bits", "[scheduler][concurrency]") {
  MLContext ctx = SchedulerContext();
  MLGraph g = MatmulChain(ctx, 96, 3);
  constexpr int kThreads = 8, kRounds = 6;
  // Serial results per input.
  std::vector<std::vector<float>> expected(kThreads);
  {
    MLTensor x = Input(ctx, {96, 96});
    MLTensor y = Output(ctx, {96, 96});
    for (int t = 0; t < kThreads; ++t) {
      ctx.writeTensor(x, (Ramp(96 * 96, 1.0f + 0.25f * t)));
      ctx.dispatch(g, {{"x", x}}, {{"y", y}});
      expected[t] = Read(ctx, y);
    }
  }
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        MLTensor x = Input(ctx, {96, 96});
        MLTensor y = Output(ctx, {96, 96});
        for (int r = 0; r < kRounds; ++r) {
          ctx.writeTensor(x, (Ramp(96 * 96, 1.0f + 0.25f * t)));
          ctx.dispatch(g, {{"x", x}}, {{"y", y}},
                       {.latencyHint = (t + r) % 2 ? MLLatencyHint::kLow : MLLatencyHint::kDefault});
          if (Read(ctx, y) != expected[t]) ++mismatches[t];
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(errors[t].empty());
    CHECK(mismatches[t] == 0);
  }
}

TEST_CASE("an error in one job leaves the queue and the other jobs intact", "[scheduler][errors]") {
  MLContext ok_ctx = SchedulerContext();
  MLGraph ok_graph = AffineGraph(ok_ctx, {256});
  MLTensor ok_x = Input(ok_ctx, {256});
  MLTensor ok_y = Output(ok_ctx, {256});
  ok_ctx.writeTensor(ok_x, (std::vector<float>(256, 2.0f)));

  MLContext ctx = SchedulerContext();
  MLGraph g = AffineGraph(ctx, {256});
  MLTensor x = Input(ctx, {256});
  MLTensor y = Output(ctx, {256});
  MLTensor y2 = Output(ctx, {256});
  ctx.writeTensor(x, (std::vector<float>(256, 1.0f)));
  MLGraphBuilder b(ctx);
  MLOperand in = b.input("x", {F32, {256}});
  MLGraph other = b.build({{"y", b.identity(in)}});
  // A job that fails as a run over the memoryLimit does (memory_test covers
  // the dispatch itself: its error reaches the read of its output).
  auto boom = std::make_shared<scheduler::Job>(
      [](core::ParallelFor&) { throw QuotaExceededError("test: a run over the memoryLimit"); },
      scheduler::Priority::kThroughput);
  scheduler::Submit(boom, {}, {});
  boom->Wait();
  REQUIRE(boom->error());
  // A job that reads its data fails with its error and does not run.
  std::atomic<bool> ran{false};
  auto reader = std::make_shared<scheduler::Job>([&](core::ParallelFor&) { ran = true; }, scheduler::Priority::kLatency);
  scheduler::Submit(reader, {boom}, {});
  reader->Wait();
  CHECK(!ran);
  CHECK(reader->error() == boom->error());
  // One only ordered after it runs.
  auto later = std::make_shared<scheduler::Job>([&](core::ParallelFor&) { ran = true; }, scheduler::Priority::kLatency);
  scheduler::Submit(later, {}, {boom});
  later->Wait();
  CHECK(ran);
  CHECK(!later->error());
  // The queues keep working for every context.
  for (int k = 0; k < 5; ++k) {
    ok_ctx.dispatch(ok_graph, {{"x", ok_x}}, {{"y", ok_y}});
    ctx.dispatch(g, {{"x", x}}, {{"y", y}});
    ctx.dispatch(other, {{"x", x}}, {{"y", y2}});
  }
  CHECK(Read(ok_ctx, ok_y) == std::vector<float>(256, 5.0f));
  CHECK(Read(ctx, y) == std::vector<float>(256, 3.0f));
  CHECK(Read(ctx, y2) == std::vector<float>(256, 1.0f));
}

TEST_CASE("destroying tensors, graphs and contexts with work in flight is safe", "[scheduler][destroy]") {
  for (int round = 0; round < 20; ++round) {
    MLContext ctx = SchedulerContext();
    MLGraph g = MatmulChain(ctx, 128, 3);
    MLTensor x = Input(ctx, {128, 128});
    MLTensor y = Output(ctx, {128, 128});
    ctx.writeTensor(x, (Ramp(128 * 128)));
    for (int k = 0; k < 3; ++k) ctx.dispatch(g, {{"x", x}}, {{"y", y}});
    std::future<std::vector<std::byte>> pending = ctx.readTensorAsync(y);
    switch (round % 4) {
      case 0:
        x.destroy();
        y.destroy();
        break;
      case 1: g.destroy(); break;
      case 2: ctx.destroy(); break;
      case 3: break;  // the handles go out of scope with the work queued
    }
    // The read queued before the destroy completes (with the data) or
    // reports an error; it never crashes or hangs.
    try {
      CHECK(pending.get().size() == 128 * 128 * 4);
    } catch (const MLException&) {
    }
    if (round % 4 == 1) CHECK(ErrorName([&] { ctx.dispatch(g, {{"x", x}}, {{"y", y}}); }) == "InvalidStateError");
  }
  // Work left queued by contexts that are gone still finishes.
  MLContext ctx = SchedulerContext();
  MLGraph g = AffineGraph(ctx, {4});
  MLTensor x = Input(ctx, {4});
  MLTensor y = Output(ctx, {4});
  ctx.writeTensor(x, (std::vector<float>(4, 1.0f)));
  ctx.dispatch(g, {{"x", x}}, {{"y", y}});
  CHECK(Read(ctx, y) == std::vector<float>(4, 3.0f));
}

TEST_CASE("the process's cpu threads are shared: contexts do not start pools of their own", "[scheduler]") {
  const size_t threads = scheduler::CpuThreadCount();
  CHECK(threads >= 1);
  // Setting the count after the pool started changes nothing.
  CHECK(!scheduler::SetCpuThreadCount(threads + 1));
  std::vector<MLContext> contexts;
  for (int k = 0; k < 16; ++k) contexts.push_back(SchedulerContext());
  CHECK(scheduler::CpuThreadCount() == threads);
  for (auto& ctx : contexts) {
    MLGraph g = AffineGraph(ctx, {16});
    MLTensor x = Input(ctx, {16});
    MLTensor y = Output(ctx, {16});
    ctx.writeTensor(x, (std::vector<float>(16, 0.5f)));
    ctx.dispatch(g, {{"x", x}}, {{"y", y}});
    CHECK(Read(ctx, y) == std::vector<float>(16, 2.0f));
  }
}

TEST_CASE("reads right after dispatches of a one-step graph see each run's values", "[scheduler][concurrency]") {
  // After its first run, a one-step graph's dispatch carries the step's
  // expected time, and the read waiting for it spins instead of sleeping
  // (scheduler::RunHere): from two threads at once, each on its own context,
  // every read must still see its own dispatch's values.
  const auto run = [](float offset, std::atomic<int>& wrong) {
    MLContext ctx = SchedulerContext();
    MLGraphBuilder b(ctx);
    MLOperand x = b.input("x", {F32, {64, 64}});
    MLGraph g = b.build({{"y", b.mul(x, b.constant(F32, MLNumber(3.0)))}});
    MLTensor xt = Input(ctx, {64, 64});
    MLTensor yt = Output(ctx, {64, 64});
    for (int i = 0; i < 100; ++i) {
      const float v = offset + static_cast<float>(i);
      ctx.writeTensor(xt, std::vector<float>(64 * 64, v));
      ctx.dispatch(g, {{"x", xt}}, {{"y", yt}});
      for (float y : Read(ctx, yt)) wrong += y != 3.0f * v;
    }
  };
  std::atomic<int> wrong{0};
  std::thread other(run, 1000.0f, std::ref(wrong));
  run(0.0f, wrong);
  other.join();
  CHECK(wrong == 0);
}
