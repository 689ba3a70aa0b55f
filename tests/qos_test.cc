// DAOP (issue 11): the cost model's interpolation and step keys, calibration
// coverage of every op, profiles on disk, and estimateQoS / meetsRequirement
// / createQoSMonitor / warm profiling through the public API, on the device
// under test. No test asserts a speed: estimates are checked against the
// model's own arithmetic, against each other, or against what was measured.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "api/impl.h"
#include "api/qos.h"
#include "ops/op_kind.h"
#include "qos/calibrate.h"
#include "qos/cost_model.h"
#include "qos/profile_file.h"
#include "qos/tune.h"
#include "test_util.h"
#include "webnn/webnn.h"

using namespace webnn;
using namespace webnn::test;

namespace {

constexpr MLOperandDataType F32 = MLOperandDataType::kFloat32;

// Points the profile directory at an empty temporary one while it lives, so
// contexts use the built-in default (or what the test stores there), not a
// profile calibrated on this machine.
class ScopedProfileDirectory {
 public:
  ScopedProfileDirectory() {
    path_ = std::filesystem::temp_directory_path() / ("webnn-qos-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
    if (const char* old = std::getenv("WEBNN_QOS_DIR")) saved_ = old;
    ::setenv("WEBNN_QOS_DIR", path_.c_str(), 1);
  }
  ~ScopedProfileDirectory() {
    if (saved_) ::setenv("WEBNN_QOS_DIR", saved_->c_str(), 1);
    else ::unsetenv("WEBNN_QOS_DIR");
    std::filesystem::remove_all(path_);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::optional<std::string> saved_;
};

MLBufferSource Fill(std::vector<float>& keep, size_t n, float v = 0.5f) {
  keep.assign(n, v);
  return MLBufferSource(std::span<const float>(keep));
}

// matmul [m, k] x constant [k, n]: one step of 2 m k n flops.
MLGraph MatmulGraph(MLContext& ctx, uint32_t m, uint32_t k, uint32_t n, std::vector<float>& keep) {
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {m, k}});
  MLOperand w = b.constant({F32, {k, n}}, Fill(keep, size_t{k} * n));
  return b.build({{"y", b.matmul(x, w)}});
}

const scheduler::Executable& ExecutableOf(const MLGraph& g) { return *g.impl()->executable; }

}  // namespace

TEST_CASE("qos grid: multilinear in log space, clamped, unmeasured corners skipped", "[qos]") {
  qos::Grid g;
  g.axes = {{0, 1, 2}, {0, 4}};
  // ln_ns = 3 a + 0.5 b: multilinear interpolation reproduces it exactly.
  for (double a : g.axes[0])
    for (double b : g.axes[1]) g.ln_ns.push_back(3 * a + 0.5 * b);
  CHECK(g.Interpolate(std::vector<double>{0.5, 1.0}) == Approx(1.5 + 0.5));
  CHECK(g.Interpolate(std::vector<double>{1.75, 3.0}) == Approx(5.25 + 1.5));
  // Beyond the axes the rate stays that of the edge.
  CHECK(g.Interpolate(std::vector<double>{9, 9}) == Approx(6 + 2));
  CHECK(g.Interpolate(std::vector<double>{-5, -5}) == Approx(0));
  // An unmeasured corner gives its weight to the others.
  g.ln_ns[1] = std::numeric_limits<double>::quiet_NaN();  // (a=0, b=4)
  CHECK(g.Interpolate(std::vector<double>{0.5, 4}) == Approx(3 + 2));  // (1, 4) alone
  CHECK(std::isnan(g.Interpolate(std::vector<double>{0, 4})));         // nothing measured there: the caller falls back
}

TEST_CASE("qos: every WebNN op has a calibration probe", "[qos]") {
  for (ops::OpKind op : ops::kAllOps) {
    INFO(ops::OpName(op));
    CHECK_FALSE(qos::ProbedClassOf(std::string(ops::OpName(op))).empty());
  }
  CHECK(qos::ProbedClassOf("noSuchOp").empty());
}

TEST_CASE("qos keys: products, convolutions and bytes on the compiled program", "[qos][device]") {
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  MLGraphBuilder b(ctx);
  std::vector<float> w1, w2, w3;
  MLOperand x = b.input("x", {F32, {1, 8, 20, 20}});
  MLConv2dOptions dw;
  dw.groups = 8;
  dw.padding = std::vector<uint32_t>{1, 1, 1, 1};
  MLOperand y = b.conv2d(x, b.constant({F32, {8, 1, 3, 3}}, Fill(w1, 72)), dw);
  MLConv2dOptions s2;
  s2.strides = std::vector<uint32_t>{2, 2};
  MLOperand z = b.conv2d(y, b.constant({F32, {16, 8, 2, 2}}, Fill(w2, 16 * 8 * 4)), s2);  // [1,16,10,10]
  MLOperand m = b.matmul(b.reshape(z, {16, 100}), b.constant({F32, {100, 6}}, Fill(w3, 600)));
  MLOperand r = b.reduceSum(m, {.axes = std::vector<uint32_t>{1}});
  MLGraph g = b.build({{"r", r}});
  const scheduler::Executable& e = ExecutableOf(g);
  std::vector<std::vector<uint32_t>> shapes(e.program().values.size());
  for (size_t v = 0; v < shapes.size(); ++v) shapes[v] = core::Sizes(e.program().values[v].desc.shape);
  std::map<std::string, qos::StepKey> keys;
  for (const ops::ProgramStep& step : e.program().steps)
    keys[std::string(ops::OpName(step.op))] = qos::KeyOf(e.program(), step, shapes);
  if (keys.count("conv2d")) {  // the last conv2d seen: the strided one
    CHECK(keys["conv2d"].cls == "conv2d.strided");
    CHECK(keys["conv2d"].x == std::vector<double>{3, 4, 2, std::log2(100.0)});
    CHECK(keys["conv2d"].work == 2.0 * 100 * 16 * 8 * 4);
  }
  REQUIRE(keys.count("matmul"));
  CHECK(keys["matmul"].cls == "matmul");
  CHECK(keys["matmul"].x == std::vector<double>{4, std::log2(100.0), std::log2(6.0)});
  CHECK(keys["matmul"].work == 2.0 * 16 * 100 * 6);
  REQUIRE(keys.count("reduceSum"));
  CHECK(keys["reduceSum"].cls == "bytes.reduceSum");
  CHECK(keys["reduceSum"].x == std::vector<double>{std::log2(96.0), std::log2(6.0)});
  CHECK(keys["reduceSum"].work == 4.0 * (96 + 16));
  CHECK(qos::FallbackClass("conv2d.depthwise.strided") == "conv2d.depthwise");
  CHECK(qos::FallbackClass("bytes.add.float16") == "bytes.add");
  CHECK(qos::FallbackClass("bytes.add") == "bytes");
  CHECK(qos::FallbackClass("bytes") == "");
}

TEST_CASE("qos calibration: a quick profile, stored and read back", "[qos][device]") {
  ScopedProfileDirectory dir;
  qos::CalibrationOptions o;
  o.device = DeviceUnderTest();
  o.threads = 1;
  o.quick = true;
  o.only = {"matmul", "bytes.add", "bytes.reduceMean", "conv2d.depthwise"};
  size_t last = 0, total = 0;
  o.progress = [&](size_t done, size_t all, const std::string&) {
    CHECK(done == last + 1);
    last = done;
    total = all;
  };
  const qos::Profile p = qos::Calibrate(o);
  CHECK(last == total);
  CHECK(p.calibrated);
  CHECK(p.threads == 1);
  for (const char* cls : {"matmul", "matmul.dynamic", "bytes.add", "bytes.reduceMean", "conv2d.depthwise", "bytes"}) {
    INFO(cls);
    REQUIRE(p.grids.count(cls));
    for (double v : p.grids.at(cls).ln_ns) CHECK(std::isfinite(v));
  }
  CHECK(p.grids.at("bytes.reduceMean").axes.size() == 2);
  CHECK(p.polyfill_lines.size() == 7);
  CHECK(p.dispatch_ms >= 0);

  const std::filesystem::path path = qos::ProfilePath(dir.path(), p.device, p.threads);
  qos::SaveProfile(p, path);
  std::string why;
  const std::optional<qos::Profile> back = qos::LoadProfile(path, &why);
  REQUIRE(back);
  CHECK(back->machine == p.machine);
  CHECK(back->grids.size() == p.grids.size());
  CHECK(back->grids.at("matmul").ln_ns == p.grids.at("matmul").ln_ns);
  CHECK(back->polyfill_lines == p.polyfill_lines);

  // A context on this device with one thread now uses it.
  std::string status;
  const qos::Profile used = qos::ProfileFor(p.device, p.machine, 1, &status);
  CHECK(used.calibrated);
  CHECK(status.rfind("calibrated", 0) == 0);
  // Another machine's profile is not used.
  qos::ProfileFor(p.device, "another machine", 1, &status);
  CHECK(status.find("measured on") != std::string::npos);
  // A damaged file is reported, not trusted.
  { std::ofstream(path) << "{\"format\": \"webnn-qos-profile/1\", \"grids\": 3}"; }
  CHECK_FALSE(qos::LoadProfile(path, &why));
  CHECK(why.find("unreadable") != std::string::npos);
}

TEST_CASE("estimateQoS: tiers from the model, weightless graphs, errors", "[qos][device]") {
  ScopedProfileDirectory dir;  // the built-in default: 10 GFLOP/s per thread, 20 us a step, 100 us a dispatch
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .numThreads = 1});
  std::vector<float> keep;
  // 2 x 368^3 = 99.7 MFLOP: 9.97 ms + 0.12 ms -> excellent (< 16 ms).
  MLGraph small = MatmulGraph(ctx, 368, 368, 368, keep);
  CHECK(ctx.estimateQoS(small).performanceTier == MLPerformanceTier::kExcellent);
  const internal::QoSDetails d = internal::EstimateQoSDetails(ctx, small, {});
  CHECK(d.ms == Approx(0.1 + 0.02 + 2.0 * 368 * 368 * 368 * 0.1e-6));
  CHECK(d.profile_status.rfind("uncalibrated", 0) == 0);
  // 8x the work: ~80 ms -> good.
  MLGraph big = MatmulGraph(ctx, 736, 736, 736, keep);
  CHECK(ctx.estimateQoS(big).performanceTier == MLPerformanceTier::kGood);
  CHECK(ctx.meetsRequirement(big, MLPerformanceTier::kGood));
  CHECK(ctx.meetsRequirement(big, MLPerformanceTier::kFair));
  CHECK_FALSE(ctx.meetsRequirement(big, MLPerformanceTier::kExcellent));

  // A weightless graph is estimated before its weights are bound.
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {368, 368}});
  MLOperand w = b.constant(MLConstantDescriptor{F32, {368, 368}, "w"});
  MLGraph weightless = b.build({{"y", b.matmul(x, w)}});
  CHECK(weightless.unboundConstants() == std::vector<std::string>{"w"});
  CHECK(ctx.estimateQoS(weightless).performanceTier == MLPerformanceTier::kExcellent);

  // Dynamic dimensions: the descriptors give the sizes.
  MLGraphBuilder bd(ctx);
  MLOperand xd = bd.input("x", {F32, {MLDynamicDimension{"rows", 4096}, 368}});
  std::vector<float> keep2;
  MLOperand wd = bd.constant({F32, {368, 368}}, Fill(keep2, 368 * 368));
  MLGraph dynamic = bd.build({{"y", bd.matmul(xd, wd)}});
  MLQoSOptions rows368{{{"x", {F32, {368, 368}}}}};
  MLQoSOptions rows4096{{{"x", {F32, {4096, 368}}}}};
  CHECK(ctx.estimateQoS(dynamic, rows368).performanceTier == MLPerformanceTier::kExcellent);
  CHECK(ctx.estimateQoS(dynamic, rows4096).performanceTier == MLPerformanceTier::kFair);
  CHECK_THROWS_AS(ctx.estimateQoS(dynamic), TypeError);  // no size for "rows"
  CHECK_THROWS_WITH(ctx.estimateQoS(dynamic, {{{"y", {F32, {1, 368}}}}}), Catch::Contains("'y'"));
  CHECK_THROWS_WITH(ctx.estimateQoS(dynamic, {{{"x", {MLOperandDataType::kFloat16, {1, 368}}}}}),
                    Catch::Contains("float16"));
  CHECK_THROWS_AS(ctx.estimateQoS(dynamic, {{{"x", {F32, {8, 5}}}}}), TypeError);  // 5 != 368
  CHECK_THROWS_AS(ctx.estimateQoS(small, {{{"x", {F32, {2, 368}}}}}), TypeError);  // a static shape differs
  small.destroy();
  CHECK_THROWS_AS(ctx.estimateQoS(small), InvalidStateError);
  MLContext other = ML::createContext({.device = DeviceUnderTest()});
  CHECK_THROWS_AS(other.estimateQoS(big), TypeError);
}

TEST_CASE("estimateQoS: a 1000-node graph is estimated in linear work", "[qos][device]") {
  ScopedProfileDirectory dir;
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .graphPasses = false});
  MLGraphBuilder b(ctx);
  MLOperand x = b.input("x", {F32, {64}});
  for (int i = 0; i < 1000; ++i) x = i % 2 ? b.relu(x) : b.neg(x);
  MLGraph g = b.build({{"y", x}});
  const internal::QoSDetails d = internal::EstimateQoSDetails(ctx, g, {});
  CHECK(d.steps.size() == 1000);
  // The default's 20 us per step dominates: 1000 steps ~ 20 ms.
  CHECK(d.ms > 20);
  CHECK(ctx.estimateQoS(g).performanceTier == MLPerformanceTier::kGood);
}

TEST_CASE("createQoSMonitor: the answer follows the load", "[qos][device]") {
  ScopedProfileDirectory dir;
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .numThreads = 1});
  std::vector<float> keep, keep_long;
  MLGraph g = MatmulGraph(ctx, 368, 368, 368, keep);  // ~10.1 ms alone: excellent; with one more job ~20 ms: not
  MLQoSMonitor monitor = ctx.createQoSMonitor(g, MLPerformanceTier::kExcellent);
  CHECK(monitor.meetsRequirement());
  std::mutex m;
  std::vector<bool> changes;
  monitor.onchange([&](bool meets) {
    std::lock_guard<std::mutex> lock(m);
    changes.push_back(meets);
  });
  // A long dispatch (hundreds of ms on any device) is in flight when the
  // dispatch returns, so the monitor sees it; when it ends, the load drops.
  MLGraph long_graph = MatmulGraph(ctx, 1024, 1024, 1024, keep_long);
  std::vector<float> data(1024 * 1024, 0.5f);
  MLTensor in = ctx.createTensor({F32, {1024, 1024}, false, true});
  ctx.writeTensor(in, MLBufferSource(std::span<const float>(data)));
  MLTensor out = ctx.createTensor({F32, {1024, 1024}, true, false});
  ctx.dispatch(long_graph, {{"x", in}}, {{"y", out}});
  ctx.finish();
  {
    std::lock_guard<std::mutex> lock(m);
    REQUIRE(changes.size() >= 2);
    CHECK_FALSE(changes.front());
    CHECK(changes.back());
  }
  CHECK(monitor.meetsRequirement());
  size_t before_stop;
  {
    std::lock_guard<std::mutex> lock(m);
    before_stop = changes.size();
  }
  monitor.stop();
  ctx.dispatch(long_graph, {{"x", in}}, {{"y", out}});
  ctx.finish();
  std::lock_guard<std::mutex> lock(m);
  CHECK(changes.size() == before_stop);
}

TEST_CASE("warm profiling: the estimate moves toward what was measured", "[qos][device]") {
  ScopedProfileDirectory dir;  // the default model is far from any device
  MLContext ctx = ML::createContext({.device = DeviceUnderTest(), .numThreads = 1, .qosWarmProfiling = true});
  std::vector<float> keep, data(256 * 256, 0.5f);
  MLGraph g = MatmulGraph(ctx, 256, 256, 256, keep);
  const double cold = internal::EstimateQoSDetails(ctx, g, {}).ms;
  MLTensor in = ctx.createTensor({F32, {256, 256}, false, true});
  ctx.writeTensor(in, MLBufferSource(std::span<const float>(data)));
  MLTensor out = ctx.createTensor({F32, {256, 256}, true, false});
  // Each dispatch's step times (warm profiling profiles every one). The warm
  // model learns their geometric mean weighted by time, older ones fading by
  // 15/16 (qos::WarmCorrections): compare with that, not with the last
  // dispatch alone, which a busy host (tests running side by side) can put
  // anywhere.
  constexpr int kDispatches = 5;
  double ln_sum = 0, weight = 0;
  for (int i = 0; i < kDispatches; ++i) {
    ctx.dispatch(g, {{"x", in}}, {{"y", out}});
    ctx.finish();
    double measured = 0;
    for (const MLStepProfile& s : g.profile().steps) measured += s.ms;
    if (std::isnan(measured)) return;  // a device that cannot time steps learns nothing
    ln_sum = ln_sum * 15.0 / 16.0 + measured * std::log(measured);
    weight = weight * 15.0 / 16.0 + measured;
  }
  const double learned = std::exp(ln_sum / weight);
  const internal::QoSDetails warm = internal::EstimateQoSDetails(ctx, g, {});
  CHECK(warm.profile_status.find("warm") != std::string::npos);
  const double steps_cold = cold - 0.1, steps_warm = warm.ms - 0.1;
  CHECK(std::abs(std::log(steps_warm / learned)) < std::abs(std::log(steps_cold / learned)));
}

TEST_CASE("qos estimate: floors, streaming constants and cold grids", "[qos][device]") {
  MLContext ctx = ML::createContext({.device = DeviceUnderTest()});
  std::vector<float> keep_small, keep_wide;
  MLGraph small = MatmulGraph(ctx, 1, 8, 8, keep_small);     // 128 flops, 256 constant bytes
  MLGraph wide = MatmulGraph(ctx, 64, 256, 256, keep_wide);  // 8.4 Mflop, 256 KiB of constants
  auto estimate = [](const qos::Profile& p, const MLGraph& g) {
    const scheduler::Executable& e = ExecutableOf(g);
    std::vector<std::vector<uint32_t>> shapes(e.program().values.size());
    for (size_t v = 0; v < shapes.size(); ++v) shapes[v] = core::Sizes(e.program().values[v].desc.shape);
    return qos::EstimateProgram(p, e.program(), shapes);
  };
  qos::Profile p;
  p.dispatch_ms = 0;
  // 1 ns per flop everywhere; the smallest probe took 0.5 ms.
  p.grids["matmul"] = qos::Grid{{{0, 12}}, {0.0, 0.0}, 0.5};
  qos::Estimate e = estimate(p, small);
  REQUIRE(e.steps.size() == 1);
  CHECK(e.steps[0].cls == "matmul");
  CHECK(e.ms == Approx(0.5));  // 128 ns of work, but not below the floor
  CHECK(estimate(p, wide).ms == Approx(2.0 * 64 * 256 * 256 * 1e-6));

  // Constants beyond half the last-level cache stream: a step takes at least
  // its constants' bytes over the bandwidth, and a ".cold" grid answers the
  // shapes within its rows.
  p.llc_bytes = 100;  // both graphs' constants exceed half of it
  p.dram_gbps = 1e-3;  // 1 MB/s: 256 KiB of weights take 262 ms
  e = estimate(p, wide);
  CHECK(e.ms == Approx(256.0 * 256 * 4 / 1e6 * 1e3));
  p.grids["matmul.cold"] = qos::Grid{{{0, 2}}, {std::log(3.0), std::log(3.0)}, 0};  // M <= 4: 3 ns per flop
  p.dram_gbps = 1e3;
  CHECK(estimate(p, wide).steps[0].cls == "matmul");  // M = 64 is beyond the cold grid's rows
  qos::Estimate cold = estimate(p, small);
  CHECK(cold.steps[0].cls == "matmul.cold");
  CHECK(cold.ms == Approx(3.0 * 128 * 1e-6));  // a cold grid has no floor
  // Constants within the cache: the warm grid, whatever the rows.
  p.llc_bytes = 1e9;
  CHECK(estimate(p, small).steps[0].cls == "matmul");
}

// Kernel tuning (qos/tune.h): a quick tune of one layer measures every
// candidate, changes the table only for a candidate that beat the model's
// choice, and leaves the process's table as it was; the table goes to disk,
// comes back, and is installed only on the machine it was measured on.
TEST_CASE("kernel tuning: measured, stored, installed on its own machine only", "[qos][tune][cpu]") {
  ScopedProfileDirectory dir;  // the table goes to dir/tune-cpu.json
  struct Env {
    const char* name;
    std::optional<std::string> saved;
  } env[] = {{"WEBNN_TUNING_FILE", {}}, {"WEBNN_TUNING", {}}};
  for (Env& e : env) {
    if (const char* v = std::getenv(e.name)) e.saved = v;
    ::unsetenv(e.name);
  }
  const std::shared_ptr<const ops::cpu::TuningTable> saved = ops::cpu::CurrentTuningTable();

  qos::ConvLayer layer;  // nchw 40 -> 64 3x3 at 14x14: DirectNchw and implicit-GEMM candidates on every target
  layer.input = {1, 40, 14, 14};
  layer.filter = {64, 40, 3, 3};
  layer.attrs.padding = {1, 1, 1, 1};
  layer.bias = true;
  layer.label = "test layer";
  const std::vector<std::string> candidates =
      ops::cpu::Conv2dTuningCandidates(layer.attrs, layer.input, layer.filter);
  REQUIRE(candidates.size() > 1);
  qos::TuneOptions o;
  o.quick = true;
  o.threads = 1;
  o.margin = o.min_gain_ms = -1;  // any candidate faster than the model's is taken
  size_t progress_calls = 0;
  o.progress = [&](size_t, size_t total, const std::string&) {
    CHECK(total == 2);
    ++progress_calls;
  };
  qos::ConvLayer depthwise = layer;  // one path per layout: nothing to measure
  depthwise.filter = {40, 1, 3, 3};
  depthwise.attrs.groups = 40;
  const qos::TuneResult r = qos::Tune({layer, depthwise}, o);
  CHECK(progress_calls == 3);
  CHECK(ops::cpu::CurrentTuningTable() == saved);
  REQUIRE(r.layers.size() == 2);
  const qos::TunedLayer& t = r.layers[0];
  CHECK(t.model == candidates.front());
  REQUIRE(t.ms.size() == candidates.size());
  size_t fastest = 0;
  for (size_t i = 0; i < t.ms.size(); ++i) {
    CHECK(t.ms[i].first == candidates[i]);
    CHECK(t.ms[i].second > 0);
    if (t.ms[i].second < t.ms[fastest].second) fastest = i;
  }
  CHECK(t.chosen == candidates[fastest]);
  CHECK(r.table.choices.size() == (fastest == 0 ? 0u : 1u));
  CHECK(r.table.measured_ms.at(t.key).size() == candidates.size());
  CHECK(r.layers[1].ms.empty());
  CHECK(r.layers[1].chosen == r.layers[1].model);
  const std::string machine = qos::MachineKey(ops::FindDevice(MLDeviceType::kCpu)->description());
  CHECK(r.table.machine == machine);
  CHECK(r.table.threads == 1);

  // Stored and read back; a forced entry for the check below.
  ops::cpu::TuningTable table = r.table;
  table.choices[t.key] = candidates.back();
  const std::filesystem::path path = qos::TuningPath();
  CHECK(path == dir.path() / "tune-cpu.json");
  qos::SaveTuningTable(table, path);
  std::string why;
  const std::optional<ops::cpu::TuningTable> back = qos::LoadTuningTable(path, &why);
  REQUIRE(back);
  CHECK(back->choices == table.choices);
  CHECK(back->measured_ms == table.measured_ms);
  CHECK(back->engine_version == ML::version());

  // Installed on this machine: a compile of the layer now takes the table's choice.
  CHECK(qos::InstallTuningTable(machine).find("1 layer choices") != std::string::npos);
  REQUIRE(ops::cpu::CurrentTuningTable());
  CHECK(ops::cpu::Conv2dTuningChoice(layer.attrs, layer.input, layer.filter) == candidates.back());
  // Another machine's table, WEBNN_TUNING=off and a damaged file install none.
  CHECK(qos::InstallTuningTable("another machine").find("was measured on") != std::string::npos);
  CHECK(!ops::cpu::CurrentTuningTable());
  CHECK(ops::cpu::Conv2dTuningChoice(layer.attrs, layer.input, layer.filter) == candidates.front());
  ::setenv("WEBNN_TUNING", "off", 1);
  CHECK(qos::InstallTuningTable(machine).find("off") != std::string::npos);
  CHECK(!ops::cpu::CurrentTuningTable());
  ::unsetenv("WEBNN_TUNING");
  { std::ofstream(path) << "{\"format\": \"webnn-tuning-table/1\", \"choices\": 3}"; }
  CHECK(qos::InstallTuningTable(machine).find("unreadable") != std::string::npos);
  CHECK(!ops::cpu::CurrentTuningTable());

  ops::cpu::SetTuningTable(saved);
  for (const Env& e : env)
    if (e.saved) ::setenv(e.name, e.saved->c_str(), 1);
}

// In-graph tuning (qos::TuneGraphs): a graph of two conv2d layers (one with a
// fused relu) is compiled once per candidate round; every layer gets a time
// for each of its candidates, the check times the whole graph both ways, and
// the process's table is left as it was.
TEST_CASE("kernel tuning in the graph: every layer's candidates timed where they run", "[qos][tune][cpu]") {
  const std::shared_ptr<const ops::cpu::TuningTable> saved = ops::cpu::CurrentTuningTable();
  std::vector<float> w1, w2;
  size_t builds = 0;
  qos::GraphSource source{"two convs", [&](MLContext& ctx) {
                            ++builds;
                            MLGraphBuilder b(ctx);
                            MLConv2dOptions o;
                            o.padding = std::vector<uint32_t>{1, 1, 1, 1};
                            MLOperand x = b.input("x", {F32, {1, 16, 20, 20}});
                            MLOperand w = b.constant({F32, {32, 16, 3, 3}}, Fill(w1, 32 * 16 * 9));
                            MLOperand y = b.relu(b.conv2d(x, w, o));
                            MLOperand z = b.conv2d(y, b.constant({F32, {8, 32, 1, 1}}, Fill(w2, 8 * 32)));
                            return b.build({{"z", z}});
                          }};
  qos::TuneOptions o;
  o.quick = true;
  o.threads = 1;
  std::vector<qos::GraphCheck> checks;
  const qos::TuneResult r = qos::TuneGraphs({source}, o, &checks);
  CHECK(ops::cpu::CurrentTuningTable() == saved);
  REQUIRE(r.layers.size() == 2);
  size_t most = 1;
  for (const qos::TunedLayer& t : r.layers) {
    INFO(t.key);
    CHECK(t.key.rfind("conv2d nchw 1x", 0) == 0);
    REQUIRE(t.ms.size() > 1);  // both layers have candidates on every target
    CHECK(t.ms.front().first == t.model);
    for (const auto& [name, ms] : t.ms) CHECK(ms > 0);
    CHECK((t.chosen == t.model) == (r.table.choices.count(t.key) == 0));
    most = std::max(most, t.ms.size());
  }
  CHECK(builds == most + 1);  // one compile per round, and the tuned graph for the check
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].name == "two convs");
  CHECK(checks[0].model_ms > 0);
  CHECK(checks[0].tuned_ms > 0);
}
