// Hostile or absurd input and concurrent misuse (issue 13): each must end in a
// spec error (or success), never a crash, a hang or an allocation of what the
// input merely declares.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include <sys/resource.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEBNN_HAS_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef WEBNN_HAS_ADDRESS_SANITIZER
#define WEBNN_HAS_ADDRESS_SANITIZER 0
#endif

#include <nlohmann/json.hpp>

#include "graph/graph.h"
#include "io/js_value.h"
#include "io/test_vectors.h"
#include "io/webnn_graph.h"
#include "memory/host_memory.h"
#include "ops/concat.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "ops/schema.h"
#include "scheduler/thread_pool.h"
#include "test_util.h"

using namespace webnn;
using namespace webnn::test;

// ---- deeply nested JSON ---------------------------------------------------------

namespace {

// `depth` nested JSON objects around the number 1: {"a":{"a":...1...}}.
std::string NestedObjects(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(static_cast<size_t>(depth), '}');
  return s;
}

std::string GraphWithReluOptions(const std::string& options) {
  return R"({"format": "webnn-graph-json", "version": 2, "inputs": {"x": {"dataType": "float32", "shape": [2]}},)"
         R"( "nodes": [{"id": "r", "op": "relu", "inputs": ["x"], "options": )" +
         options + R"(}], "outputs": {"y": "r"}})";
}

}  // namespace

TEST_CASE("deeply nested JSON is a DataError naming the limit, not a stack overflow", "[robustness][json]") {
  MLContext ctx = Context();
  // 20,000 nested objects in a node's options crashed `webnn run` (SIGSEGV).
  const std::string deep = GraphWithReluOptions(NestedObjects(20000));
  CHECK(ErrorName([&] { io::BuildGraphFromJson(ctx, deep, nullptr, "deep.json"); }) == "DataError");
  CHECK_THAT(ErrorMessage([&] { io::BuildGraphFromJson(ctx, deep, nullptr, "deep.json"); }),
             Catch::Contains("deep.json") && Catch::Contains(std::to_string(io::kMaxJsonDepth)));
  // Brackets inside strings do not count.
  const std::string brackets = std::string(20000, '[');
  CHECK_NOTHROW(io::ParseJsonDocument("{\"s\": \"" + brackets + "\"}", "strings.json"));
  // Nesting up to the limit is fine (the options are simply unknown members).
  CHECK_NOTHROW(io::ParseJsonDocument(NestedObjects(io::kMaxJsonDepth), "limit.json"));
  CHECK(ErrorName([&] { io::ParseJsonDocument(NestedObjects(io::kMaxJsonDepth + 1), "over.json"); }) == "DataError");

  // A value built in memory (not parsed from text) is checked by the converter.
  nlohmann::json value = 1;
  for (int i = 0; i < io::kMaxJsonDepth + 1; ++i) value = nlohmann::json::array({std::move(value)});
  CHECK(ErrorName([&] { io::JsValueFromJson(value); }) == "DataError");
  CHECK_THAT(ErrorMessage([&] { io::JsValueFromJson(value); }),
             Catch::Contains(std::to_string(io::kMaxJsonDepth)));
  CHECK_NOTHROW(io::JsValueFromJson(value[0]));  // exactly the limit
}

// ---- destroy() racing the timeline --------------------------------------------

namespace {
const MLOperandDataType F32 = MLOperandDataType::kFloat32;

// Counts outcomes by name ("ok", a spec error's name, or anything else) from
// several threads; Catch2's assertions are for the main thread only.
class Outcomes {
 public:
  void Record(const std::function<void()>& f) {
    std::string r;
    try {
      f();
      r = "ok";
    } catch (const MLException& e) {
      r = e.name();
    } catch (const std::exception& e) {
      r = std::string("not a spec error: ") + e.what();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    ++counts_[r];
  }
  std::map<std::string, int> counts() const { return counts_; }

 private:
  std::mutex mutex_;
  std::map<std::string, int> counts_;
};

// Starts `n` threads that wait for each other before running their bodies, so
// that they really overlap.
void RunTogether(const std::vector<std::function<void()>>& bodies) {
  std::atomic<size_t> ready{0};
  std::vector<std::thread> threads;
  for (const auto& body : bodies)
    threads.emplace_back([&ready, &bodies, &body] {
      ready.fetch_add(1);
      while (ready.load() < bodies.size()) std::this_thread::yield();
      body();
    });
  for (auto& t : threads) t.join();
}
}  // namespace

TEST_CASE("destroy() racing writeTensor, readTensor and dispatch gives spec errors, never a crash",
          "[robustness][api]") {
  MLContext ctx = Context(MLDeviceType::kCpu);
  MLGraphBuilder b(ctx);
  MLGraph g = b.build({{"y", b.relu(b.input("x", {F32, {256}}))}});
  const std::vector<float> data(256, 1.0f);
  Outcomes outcomes;
  for (int round = 0; round < 300; ++round) {
    MLTensor x = ctx.createTensor({.dataType = F32, .shape = {256}, .writable = true});
    MLTensor y = ctx.createTensor({.dataType = F32, .shape = {256}, .readable = true});
    RunTogether({
        [&] { for (int k = 0; k < 3; ++k) outcomes.Record([&] { ctx.writeTensor(x, data); }); },
        [&] { for (int k = 0; k < 3; ++k) outcomes.Record([&] { ctx.readTensor(y); }); },
        [&] { for (int k = 0; k < 3; ++k) outcomes.Record([&] { ctx.dispatch(g, {{"x", x}}, {{"y", y}}); }); },
        [&] {
          (round % 2 ? x : y).destroy();
          (round % 2 ? y : x).destroy();
        },
    });
  }
  const auto counts = outcomes.counts();
  for (const auto& [outcome, n] : counts) {
    INFO(outcome << ": " << n);
    CHECK((outcome == "ok" || outcome == "TypeError"));
  }
  CHECK(counts.count("TypeError") == 1);  // some calls did meet a destroyed tensor
}

TEST_CASE("context destroy() racing dispatch and tensor use gives spec errors, never a crash", "[robustness][api]") {
  const std::vector<float> data(64, -1.0f);
  Outcomes outcomes;
  for (int round = 0; round < 60; ++round) {
    MLContext ctx = Context(MLDeviceType::kCpu);
    MLGraphBuilder b(ctx);
    MLGraph g = b.build({{"y", b.neg(b.input("x", {F32, {64}}))}});
    MLTensor x = ctx.createTensor({.dataType = F32, .shape = {64}, .writable = true});
    MLTensor y = ctx.createTensor({.dataType = F32, .shape = {64}, .readable = true});
    RunTogether({
        [&] {
          for (int k = 0; k < 3; ++k) {
            outcomes.Record([&] { ctx.writeTensor(x, data); });
            outcomes.Record([&] { ctx.dispatch(g, {{"x", x}}, {{"y", y}}); });
            outcomes.Record([&] { ctx.readTensor(y); });
          }
        },
        [&] { ctx.destroy(); },
    });
  }
  for (const auto& [outcome, n] : outcomes.counts()) {
    INFO(outcome << ": " << n);
    CHECK((outcome == "ok" || outcome == "TypeError" || outcome == "InvalidStateError"));
  }
}

TEST_CASE("dispatch on a destroyed context says the context is lost", "[robustness][api]") {
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLGraph g = b.build({{"y", b.relu(b.input("x", {F32, {2}}))}});
  MLTensor x = ctx.createTensor({.dataType = F32, .shape = {2}, .writable = true});
  MLTensor y = ctx.createTensor({.dataType = F32, .shape = {2}, .readable = true});
  ctx.destroy();
  auto dispatch = [&] { ctx.dispatch(g, {{"x", x}}, {{"y", y}}); };
  CHECK(ErrorName(dispatch) == "InvalidStateError");
  CHECK_THAT(ErrorMessage(dispatch), Catch::Contains("context is lost") && Catch::Contains("destroy()"));
}

// ---- thread pool ---------------------------------------------------------------

TEST_CASE("a thread pool whose worker cannot start stops the others and rethrows", "[robustness][threads]") {
  int started = 0;
  const scheduler::ThreadPool::StartThread start = [&](std::function<void()> body) {
    if (++started == 4) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    return std::thread(std::move(body));
  };
  // Used to hang (a condition variable destroyed under waiting workers) or
  // terminate (joinable threads destroyed).
  CHECK_THROWS_AS(scheduler::ThreadPool(8, start), std::system_error);
  CHECK(started == 4);
  // The pool works when every thread starts.
  scheduler::ThreadPool pool(4, [](std::function<void()> body) { return std::thread(std::move(body)); });
  std::atomic<uint64_t> sum{0};
  pool.Run(1000, 10, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) sum += i;
  });
  CHECK(sum == 999 * 1000 / 2);
}

TEST_CASE("numThreads has an upper bound checked by createContext", "[robustness][threads][api]") {
  const auto max = static_cast<uint32_t>(scheduler::ThreadPool::kMaxThreads);
  for (uint32_t n : {max + 1, 4294967295u}) {
    auto create = [&] { ML::createContext({.device = MLDeviceType::kCpu, .numThreads = n}); };
    CHECK(ErrorName(create) == "TypeError");
    CHECK_THAT(ErrorMessage(create), Catch::Contains("numThreads") && Catch::Contains(std::to_string(n)) &&
                                         Catch::Contains(std::to_string(max)));
  }
  CHECK_NOTHROW(ML::createContext({.device = MLDeviceType::kCpu, .numThreads = 3}));
}

// ---- test-vector files -----------------------------------------------------------

namespace {
// Runs a conformance file of one relu case whose input is `input` (JSON).
io::VectorReport RunReluVector(const std::string& input) {
  const std::string text = R"({"tests": [{"name": "relu robustness", "tolerance": {"metricType": "ULP", "value": 0},)"
                           R"( "inputs": {"x": )" + input + R"(}, "operators": [{"name": "relu", "arguments":)"
                           R"( [{"name": "input", "kind": "operand", "operand": "x"}], "outputs": "y"}],)"
                           R"( "expectedOutputs": {"y": {"dataType": "float32", "shape": [2], "data": [1, 0]}}}]})";
  const auto path = std::filesystem::temp_directory_path() /
                    ("webnn_robustness_" + std::to_string(std::hash<std::string>{}(input)) + ".json");
  std::ofstream(path) << text;
  io::VectorReport report = io::RunVectorFile(path.string(), {});
  std::filesystem::remove(path);
  return report;
}
}  // namespace

TEST_CASE("test vectors are validated before anything is allocated", "[robustness][vectors]") {
  // The well-formed case passes, so the failures below come from the inputs.
  const io::VectorReport good = RunReluVector(R"({"dataType": "float32", "shape": [2], "data": [1, -1]})");
  CHECK(good.passed == 1);
  CHECK(good.failed == 0);
  struct Bad {
    const char* input;
    const char* message;
  };
  const Bad cases[] = {
      // 8.4 GB reserved for one datum.
      {R"({"dataType": "float32", "shape": [2147483647], "data": [1]})", "has 2147483647 elements but data has 1"},
      // -24 read as 4294967272.
      {R"({"dataType": "float32", "shape": [-24], "data": [1]})", "dimension -24"},
      {R"({"dataType": "float32", "shape": [2.5], "data": [1, -1]})", "dimension 2.5"},
      {R"({"dataType": "float32", "shape": [4294967296], "data": [1]})", "dimension 4294967296"},
      {R"({"dataType": "float32", "shape": [{"name": "n", "maxSize": -2}], "data": [1, -1]})", "dimension -2"},
      {R"({"dataType": "float32", "shape": [2], "concreteShape": [-1], "data": [1, -1]})", "dimension -1"},
      {R"({"dataType": "float32", "shape": [2], "data": [1, -1, 3]})", "has 2 elements but data has 3"},
      // fill: one datum for the whole shape, but the shape must still fit a tensor.
      {R"({"dataType": "float32", "shape": [65536, 65536], "fill": true, "data": [1]})", "maxTensorByteLength"},
  };
  for (const Bad& c : cases) {
    INFO(c.input);
    const io::VectorReport r = RunReluVector(c.input);
    CHECK(r.failed == 1);
    REQUIRE(r.failures.size() == 1);
    CHECK_THAT(r.failures[0], Catch::Contains("DataError") && Catch::Contains(c.message));
  }
}

// ---- int4 byte lengths -----------------------------------------------------------

TEST_CASE("int4 byte lengths do not wrap", "[robustness][types]") {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  CHECK(ByteLengthFor(MLOperandDataType::kInt4, 3) == 2);
  CHECK(ByteLengthFor(MLOperandDataType::kUint4, kMax - 1) == kMax / 2);
  CHECK(ByteLengthFor(MLOperandDataType::kInt4, kMax) == kMax);  // was (kMax + 1) / 2 = 0
  CHECK(ByteLengthFor(MLOperandDataType::kFloat32, kMax / 2) == kMax);

  // A manifest entry with absurd int4 dimensions and byteLength 0 was accepted.
  std::vector<std::byte> weights(8);
  std::memcpy(weights.data(), "WGWT\x01\x00\x00\x00", 8);
  const std::string manifest =
      R"({"format": "wg-weights-manifest", "tensors": {"w": {"dataType": "int4",)"
      R"( "shape": [4294967295, 4294967295, 4294967295], "byteOffset": 8, "byteLength": 0}}})";
  auto load = [&] { io::WeightStore::FromWeightsBytes(weights, manifest, "absurd.weights"); };
  CHECK(ErrorName(load) == "DataError");
  CHECK_THAT(ErrorMessage(load), Catch::Contains("tensor 'w'"));
}

// ---- many inputs ------------------------------------------------------------------

TEST_CASE("declaring 100,000 inputs takes linear time", "[robustness][builder]") {
  // No time is asserted: a quadratic input() (a scan per name) makes this
  // test take 14 s instead of well under one.
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand last;
  for (int i = 0; i < 100000; ++i) last = b.input("in" + std::to_string(i), {F32, {1}});
  CHECK(ErrorName([&] { b.input("in99999", {F32, {1}}); }) == "TypeError");  // still unique
  CHECK(ErrorName([&] { b.input("in0", {F32, {1}}); }) == "TypeError");
  MLGraph g = b.build({{"y", b.relu(last)}});
  CHECK(g.inputDescriptors().size() == 1);
}

// ---- memory -------------------------------------------------------------------------

namespace {
// Virtual and resident memory of this process (Linux), in bytes.
std::pair<uint64_t, uint64_t> ProcessBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return {size * page, resident * page};
}
uint64_t ResidentBytes() { return ProcessBytes().second; }

// Runs `f` with the address space limited to what the process maps now plus
// `headroom`, so that a large allocation fails as it does on a machine without
// the memory. Returns "ok", "<spec error name>: <message>" or what else it threw.
std::string WithAddressSpaceHeadroom(uint64_t headroom, const std::function<void()>& f) {
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  rlimit low = old;
  low.rlim_cur = ProcessBytes().first + headroom;
  std::string outcome;
  REQUIRE(setrlimit(RLIMIT_AS, &low) == 0);
  try {
    f();
    outcome = "ok";
  } catch (const MLException& e) {
    outcome = std::string(e.name()) + ": " + e.what();
  } catch (const std::exception& e) {
    outcome = std::string("not a spec error: ") + e.what();
  }
  setrlimit(RLIMIT_AS, &old);
  return outcome;
}
}  // namespace

TEST_CASE("allocation failures are QuotaExceededError naming the bytes and their use", "[robustness][memory]") {
  MLContext ctx = Context();
  memory::SetHostMemoryBudget(memory::GetHostMemoryStats().current_bytes + 4096);
  auto create = [&] { ctx.createTensor({.dataType = F32, .shape = {1 << 20}, .readable = true}); };
  const std::string name = ErrorName(create), message = ErrorMessage(create);
  memory::SetHostMemoryBudget(0);
  CHECK(name == "QuotaExceededError");
  CHECK_THAT(message, Catch::Contains("4194304 bytes") && Catch::Contains("createTensor"));

  // More than the address space (256 TiB): refused by the system, not by a budget.
  auto huge = [] { memory::HostBlock block(size_t{1} << 48, "a test block"); };
  CHECK(ErrorName(huge) == "QuotaExceededError");
  CHECK_THAT(ErrorMessage(huge), Catch::Contains(std::to_string(uint64_t{1} << 48)) &&
                                     Catch::Contains("a test block"));
}

TEST_CASE("running out of memory in readTensor or a kernel is a QuotaExceededError", "[robustness][memory]") {
#if defined(__SANITIZE_ADDRESS__) || WEBNN_HAS_ADDRESS_SANITIZER
  WARN("skipped: AddressSanitizer reserves the address space this test limits");
  return;
#endif
  // Both used to throw a bare std::bad_alloc.
  MLContext ctx = Context();
  MLTensor big = ctx.createTensor({.dataType = F32, .shape = {1u << 27}, .readable = true});  // 512 MiB
  CHECK_THAT(WithAddressSpaceHeadroom(uint64_t{64} << 20, [&] { ctx.readTensor(big); }),
             Catch::StartsWith("QuotaExceededError") && Catch::Contains("536870912 bytes"));
  // The reference reduceSum's float64 scratch copy of a 512 MiB input.
  MLGraphBuilder b(ctx);
  MLReduceOptions total;
  total.label = "total";
  MLGraph g = b.build({{"y", b.reduceSum(b.input("x", {F32, {1u << 27}}), total)}});
  MLTensor y = ctx.createTensor({.dataType = F32, .shape = {}, .readable = true});
  // dispatch() queues the run; its error reaches the read of its output.
  CHECK_THAT(WithAddressSpaceHeadroom(uint64_t{64} << 20,
                                      [&] {
                                        ctx.dispatch(g, {{"x", big}}, {{"y", y}});
                                        ctx.readTensor(y);
                                      }),
             Catch::StartsWith("QuotaExceededError") && Catch::Contains("reduceSum 'total'"));
}

TEST_CASE("build() does not touch the pages of a large intermediate arena", "[robustness][memory]") {
  // 512 MiB of intermediates, built but never dispatched: memset used to
  // commit every page at build time.
  MLContext ctx = Context();
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {1}});
  MLOperand wide = b.expand(x, {uint32_t{1} << 27});
  MLOperand y = b.reduceSum(wide);
  const uint64_t before = ResidentBytes();
  MLGraph g = b.build({{"y", y}});
  const uint64_t after = ResidentBytes();
  CHECK(after < before + (uint64_t{64} << 20));
}

// ---- the graph's own entry ----------------------------------------------------------------

// The builder always fills every schema slot (kNoOperand for an absent
// option), but Graph::AddNode is also what passes and tests call: a wrong
// operand count is a TypeError before shape inference reads a slot that is
// not there, and the graph stays as it was.
TEST_CASE("Graph::AddNode checks the operand count against the op's slots", "[robustness][builder]") {
  graph::Graph g;
  const core::OperandDesc desc{core::DataType::kFloat32, {core::Dim::Static(2), core::Dim::Static(2)}};
  const graph::OperandId x = g.AddInput("x", desc);
  auto matmul = [&](std::vector<graph::OperandId> in) {
    g.AddNode(ops::OpKind::matmul, "m", std::move(in), std::make_shared<ops::MatmulAttrs>(),
              ops::SchemaLimits(ops::OpKind::matmul));
  };
  CHECK_THROWS_AS(matmul({x}), TypeError);
  CHECK(ErrorMessage([&] { matmul({x}); }) == "matmul [m]: takes 2 operands, got 1");
  CHECK(ErrorMessage([&] { matmul({x, x, x}); }) == "matmul [m]: takes 2 operands, got 3");
  CHECK(ErrorMessage([&] { matmul({}); }) == "matmul [m]: takes 2 operands, got 0");
  CHECK(g.nodes().empty());
  matmul({x, x});
  CHECK(g.nodes().size() == 1);
  // Trailing options may be left out (gemm's C); they become kNoOperand.
  auto gemm = [&](std::vector<graph::OperandId> in) {
    return g.AddNode(ops::OpKind::gemm, "g", std::move(in), std::make_shared<ops::GemmAttrs>(),
                     ops::SchemaLimits(ops::OpKind::gemm));
  };
  CHECK(ErrorMessage([&] { gemm({x}); }) == "gemm [g]: takes 2 to 3 operands, got 1");
  CHECK(ErrorMessage([&] { gemm({x, x, x, x}); }) == "gemm [g]: takes 2 to 3 operands, got 4");
  const graph::OperandId y = gemm({x, x})[0];
  CHECK(g.nodes().back().inputs == std::vector<graph::OperandId>{x, x, graph::kNoOperand});
  CHECK(g.operand(y).desc.shape == desc.shape);
  // A variadic slot takes what its op's inference allows.
  auto concat = [&](std::vector<graph::OperandId> in) {
    auto attrs = std::make_shared<ops::ConcatAttrs>();
    g.AddNode(ops::OpKind::concat, "c", std::move(in), attrs, ops::SchemaLimits(ops::OpKind::concat));
  };
  CHECK(ErrorMessage([&] { concat({}); }) == "concat [c]: inputs must have 1 to 8192 operands, got 0");
  concat({x, x, x});
  CHECK(g.nodes().size() == 3);
}
