// webnn run: loads a webnn-graph file, feeds inputs (.npy or random), runs it
// on a device, prints per-output statistics and timings, and optionally
// compares with reference outputs or saves the outputs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include <sys/resource.h>

#include "api/impl.h"
#include "cli_args.h"
#include "commands.h"
#include "core/float16.h"
#include "core/shape.h"
#include "core/ulp.h"
#include "io/npy.h"
#include "io/webnn_graph.h"
#include "progress.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// "62 steps: conv2d 40, fusedElementwise 12, ..." for the compiled program
// (after the device's graph passes), most frequent first.
// "policy default, every step on cpu", or the steps on each device, the
// ones on fallback devices named, and the copies between device memories.
std::string PlacementSummary(const MLGraph& graph) {
  const MLGraphPlacement p = graph.placement();
  std::string out = "policy " + std::string(ToString(p.effectivePolicy));
  std::map<MLDeviceType, size_t> counts;
  for (const MLNodePlacement& node : p.nodes) ++counts[node.device];
  if (counts.size() <= 1) return out + ", every step on " + std::string(ToString(p.device));
  for (const auto& [device, count] : counts) out += ", " + std::to_string(count) + " on " + std::string(ToString(device));
  std::string moved;
  size_t shown = 0;
  for (const MLNodePlacement& node : p.nodes) {
    if (node.device == p.device || shown++ >= 8) continue;
    moved += (moved.empty() ? "" : ", ") + node.op + (node.label.empty() ? "" : " '" + node.label + "'");
  }
  if (shown > 8) moved += ", ...";
  return out + " (" + moved + "); " + std::to_string(p.transfers) + " copies between device memories per dispatch (" +
         std::to_string(p.transferBytes) + " bytes)";
}

std::string ProgramSummary(const MLGraph& graph) {
  std::map<std::string, int> counts;
  for (uint32_t n : graph.impl()->nodes) ++counts[std::string(ops::OpName(graph.impl()->ir->nodes()[n].op))];
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [op, count] : counts) sorted.emplace_back(-count, op);
  std::sort(sorted.begin(), sorted.end());
  std::string out = std::to_string(graph.impl()->nodes.size()) + " steps:";
  for (size_t i = 0; i < sorted.size(); ++i)
    out += (i ? ", " : " ") + sorted[i].second + " " + std::to_string(-sorted[i].first);
  return out;
}

uint64_t ParseBytes(const std::string& text, const std::string& option) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v == 0 || text[0] == '-')
    throw std::invalid_argument(option + " wants a positive byte count, got '" + text + "'");
  return v;
}

// The context's bytes per category and device, the process's peak RSS, and
// how the arena packed the graph's intermediates.
void PrintMemory(const MLContext& context, const MLGraph* graph, bool completed) {
  const MLMemoryUsage u = context.memoryUsage();
  const bool gpu = u.devices[1].peak != 0;
  std::printf("memory (bytes)        %14s %14s%s\n", "host now", "host peak", gpu ? "        gpu now       gpu peak" : "");
  for (size_t c = 0; c < kMLMemoryCategoryCount; ++c) {
    const auto cat = static_cast<MLMemoryCategory>(c);
    const MLMemoryCounter& h = u.at(MLMemoryDevice::kHost, cat);
    std::printf("  %-19s %14llu %14llu", std::string(ToString(cat)).c_str(), static_cast<unsigned long long>(h.current),
                static_cast<unsigned long long>(h.peak));
    if (gpu) {
      const MLMemoryCounter& g = u.at(MLMemoryDevice::kGpu, cat);
      std::printf(" %14llu %14llu", static_cast<unsigned long long>(g.current), static_cast<unsigned long long>(g.peak));
    }
    std::printf("\n");
  }
  std::printf("  %-19s %14llu %14llu", "all", static_cast<unsigned long long>(u.devices[0].current),
              static_cast<unsigned long long>(u.devices[0].peak));
  if (gpu)
    std::printf(" %14llu %14llu", static_cast<unsigned long long>(u.devices[1].current),
                static_cast<unsigned long long>(u.devices[1].peak));
  std::printf("\n");
  std::printf("memory total: now %llu, peak %llu bytes%s%s%s\n", static_cast<unsigned long long>(u.total.current),
              static_cast<unsigned long long>(u.total.peak),
              completed ? " (the least --memory-limit that runs this)" : "", u.memoryLimit ? "; limit " : "",
              u.memoryLimit ? std::to_string(*u.memoryLimit).c_str() : "");
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("process peak RSS: %llu bytes (getrusage ru_maxrss)\n",
              static_cast<unsigned long long>(usage.ru_maxrss) * 1024ull);
  if (graph) {
    const MLGraphMemoryPlan plan = graph->memoryPlan();
    std::printf("arena: %llu bytes planned for %llu intermediates of %llu bytes in all (%.1f%%)\n",
                static_cast<unsigned long long>(plan.arenaBytes),
                static_cast<unsigned long long>(plan.intermediateCount),
                static_cast<unsigned long long>(plan.intermediateBytes),
                plan.intermediateBytes ? 100.0 * static_cast<double>(plan.arenaBytes) /
                                             static_cast<double>(plan.intermediateBytes)
                                       : 0.0);
  }
}

// `runs` profiled dispatches; per step the median time.
void PrintProfile(MLContext& context, const MLGraph& graph, const MLNamedTensors& inputs,
                  const MLNamedTensors& outputs, int runs) {
  std::vector<std::vector<double>> ms;
  MLGraphProfile last;
  for (int r = 0; r < runs; ++r) {
    MLDispatchOptions options;
    options.profile = true;
    context.dispatch(graph, inputs, outputs, options);
    context.finish();
    last = graph.profile();
    ms.resize(last.steps.size());
    for (size_t s = 0; s < last.steps.size(); ++s) ms[s].push_back(last.steps[s].ms);
  }
  std::vector<double> median(ms.size());
  double total = 0;
  for (size_t s = 0; s < ms.size(); ++s) {
    std::sort(ms[s].begin(), ms[s].end());
    median[s] = ms[s][ms[s].size() / 2];
    if (!std::isnan(median[s])) total += median[s];
  }
  std::printf("profile: %zu steps, median of %d profiled runs (the steps' sum: %.3f ms)\n", ms.size(), runs, total);
  std::printf("  %4s  %-18s %-9s %-22s %10s %6s %9s %9s  %s\n", "step", "op", "device", "output shape", "ms", "%",
              "GFLOP/s", "GB/s", "label");
  std::map<std::string, std::pair<double, int>> per_op;
  for (size_t s = 0; s < last.steps.size(); ++s) {
    const MLStepProfile& p = last.steps[s];
    const double t = median[s];
    const std::string shape = p.outputShapes.empty() ? "" : ShapeString(p.outputShapes[0]);
    char gflops[32] = "", gbps[32] = "";
    if (!std::isnan(t) && t > 0) {
      if (p.flops > 0) std::snprintf(gflops, sizeof gflops, "%.1f", p.flops / (t * 1e6));
      std::snprintf(gbps, sizeof gbps, "%.1f", p.bytes / (t * 1e6));
    }
    std::printf("  %4zu  %-18s %-9s %-22s %10.4f %6.1f %9s %9s  %s\n", s, p.op.c_str(),
                std::string(ToString(p.device)).c_str(), shape.c_str(), t, total > 0 ? 100.0 * t / total : 0.0,
                gflops, gbps, p.label.c_str());
    auto& [op_ms, count] = per_op[p.op];
    if (!std::isnan(t)) op_ms += t;
    ++count;
  }
  std::vector<std::pair<double, std::string>> ops;
  for (const auto& [op, v] : per_op) ops.push_back({v.first, op});
  std::sort(ops.rbegin(), ops.rend());
  std::printf("profile per op:\n");
  for (const auto& [t, op] : ops)
    std::printf("  %-18s %4d steps %10.3f ms %6.1f %%\n", op.c_str(), per_op[op].second, t,
                total > 0 ? 100.0 * t / total : 0.0);
}

// What `webnn run` was asked to do, besides the context's options.
struct RunOptions {
  io::GraphLoadOptions load;
  std::map<std::string, std::string> input_files, reference_files;
  std::map<std::string, uint32_t> dims;
  std::string save_dir;
  uint64_t seed = 1;
  int iterations = 1;
  double tolerance = -1;  // < 0: none
  bool print_memory = false, profile = false, print_values = false;
  uint64_t print_limit = 256;  // 0: all
};

// Every name given on the command line names something the graph has; the
// error lists what it has (a typo would otherwise be a silent random input).
void CheckNames(const io::LoadedGraph& loaded, const RunOptions& run) {
  for (const auto& [name, file] : run.input_files)
    if (!loaded.inputs.count(name))
      throw std::invalid_argument("--input " + name + "=" + file + ": the graph has no input '" + name +
                                  "'; its inputs are " + NameList(loaded.inputs));
  for (const auto& [name, file] : run.reference_files)
    if (!loaded.outputs.count(name))
      throw std::invalid_argument("--reference " + name + "=" + file + ": the graph has no output '" + name +
                                  "'; its outputs are " + NameList(loaded.outputs));
  std::map<std::string, int> dynamic;
  for (const auto& [input, desc] : loaded.inputs)
    for (const MLDimension& d : desc.shape)
      if (d.isDynamic()) dynamic[d.name()] = 0;
  for (const auto& [name, size] : run.dims)
    if (!dynamic.count(name))
      throw std::invalid_argument("--dim " + name + "=" + std::to_string(size) + ": no input has a dynamic dimension '" +
                                  name + "'; the graph's dynamic dimensions are " + NameList(dynamic));
}


// Element k exactly as text: floats with enough digits to read back the same
// value, 64-bit integers without a detour through double.
std::string FormatElement(const std::vector<std::byte>& d, MLOperandDataType t, uint64_t k) {
  char text[40];
  auto get = [&](auto x) {
    std::memcpy(&x, d.data() + k * sizeof(x), sizeof(x));
    return x;
  };
  switch (t) {
    case MLOperandDataType::kFloat32: std::snprintf(text, sizeof text, "%.9g", get(float{})); break;
    case MLOperandDataType::kFloat16: std::snprintf(text, sizeof text, "%.5g", core::ElementAsDouble(d, t, k)); break;
    case MLOperandDataType::kInt64: std::snprintf(text, sizeof text, "%lld", static_cast<long long>(get(int64_t{}))); break;
    case MLOperandDataType::kUint64:
      std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(get(uint64_t{})));
      break;
    default: std::snprintf(text, sizeof text, "%.0f", core::ElementAsDouble(d, t, k)); break;
  }
  return text;
}

// The values, at most 8 a line and never across rows of the last dimension,
// each line led by the index of its first value: "  [0, 2, 8:16]  1 2 ...".
void PrintValues(const std::vector<std::byte>& data, MLOperandDataType type, const std::vector<uint32_t>& shape,
                 uint64_t limit) {
  const uint64_t n = core::ElementCount(shape);
  const uint64_t shown = limit == 0 ? n : std::min(n, limit);
  const uint64_t row = shape.empty() ? 1 : std::max<uint64_t>(shape.back(), 1);
  constexpr uint64_t kPerLine = 8;
  for (uint64_t k = 0; k < shown;) {
    const uint64_t end = std::min({shown, k + kPerLine, (k / row + 1) * row});
    std::string index = "[";
    uint64_t rest = k / row;
    std::string outer;
    for (size_t i = shape.size() > 0 ? shape.size() - 1 : 0; i-- > 0;) {
      outer = std::to_string(rest % shape[i]) + (outer.empty() ? "" : ", ") + outer;
      rest /= shape[i];
    }
    if (!shape.empty())
      index += outer + (outer.empty() ? "" : ", ") + std::to_string(k % row) + ":" + std::to_string((end - 1) % row + 1);
    std::printf("  %s]", index.c_str());
    for (uint64_t j = k; j < end; ++j) std::printf(" %s", FormatElement(data, type, j).c_str());
    std::printf("\n");
    k = end;
  }
  if (shown < n)
    std::printf("  ... %llu more values (--print-limit 0 prints all, --save writes them)\n",
                static_cast<unsigned long long>(n - shown));
}

void Usage() {
  std::printf(
      "usage: webnn run [options] GRAPH.json\n"
      "Loads a webnn-graph JSON file and its weights, runs it and prints each output's\n"
      "shape, statistics and the wall time. A .onnx file is converted first (webnn convert)\n"
      "into a temporary directory.\n"
      "  --device D              reference, cpu, gpu or auto (default)\n"
      "  --threads N             cpu device threads, at most 1024 (default: all cores)\n"
      "  --no-passes             run the graph as built: no graph passes (fusions, ...)\n"
      "  --nhwc-layout           also run the experimental nhwc layout pass\n"
      "  --int8-activations      cpu: quantized matmuls with <= 4 rows quantize their activations to\n"
      "                          int8 (MLContextOptions::int8MatmulActivations; faster, inexact)\n"
      "  --weights FILE          .weights or .safetensors (default: next to GRAPH.json)\n"
      "  --manifest FILE         manifest of a .weights file (default: the weights path with\n"
      "                          .manifest.json for .weights, e.g. det.weights -> det.manifest.json)\n"
      "  --stream-weights BYTES  build the weights weightless, then stream them from the mapped file\n"
      "                          through MLConstantWriter in chunks of BYTES (webnn#901)\n"
      "  --input NAME=FILE.npy   input data (repeatable); other inputs are random\n"
      "  --seed N                seed of the random inputs (default 1)\n"
      "  --dim NAME=SIZE         size of a named dynamic dimension (default: its maxSize)\n"
      "  --reference NAME=FILE.npy  compare an output with reference data\n"
      "  --tolerance T           fail (exit 1) if a compared output's max |ours - ref| / max |ref| > T\n"
      "  --save DIR              write every output as DIR/NAME.npy\n"
      "  --print                 print each output's values (the first --print-limit of them)\n"
      "  --print-limit N         values printed per output with --print (default 256; 0: all)\n"
      "  --iterations N          time N dispatches after one warm-up (default 1)\n"
      "  --staging-limit BYTES   MLContextOptions::constantStagingLimit: raw bytes streamed weights may\n"
      "                          hold at once before they are packed (default 64 MiB)\n"
      "  --policy NAME           compute policy (MLContextOptions::powerPreference): default,\n"
      "                          high-performance, low-power, fallback, low-latency; with --device auto\n"
      "                          it picks the device\n"
      "  --strict-placement      fail to build if the device does not run a node, instead of running it\n"
      "                          on a fallback device (MLContextOptions::strictPlacement)\n"
      "  --memory-limit BYTES    MLContextOptions::memoryLimit: going over it is a QuotaExceededError\n"
      "  --memory                print the context's current and peak bytes per category and device,\n"
      "                          the process's peak RSS and the arena's plan (also when over the limit)\n"
      "  --profile               after the timed runs, as many profiled ones (MLDispatchOptions::profile):\n"
      "                          a table of the compiled program's steps with each one's median time,\n"
      "                          share, GFLOP/s (products) and GB/s, then the time per op\n");
}

}  // namespace

int RunGraph(MLContext& context, const std::string& graph_path, const RunOptions& run, MLGraph& built);

int Run(const Args& args) {
  MLContextOptions context_options;
  RunOptions run;
  io::GraphLoadOptions& load = run.load;
  std::string graph_path;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") {
      Usage();
      return 0;
    } else if (a == "--device") {
      context_options.device = ParseDevice(walk.Value());
    } else if (a == "--threads") {
      context_options.numThreads = ParseUint32(walk.Value(), "--threads");
    } else if (a == "--no-passes") {
      context_options.graphPasses = false;
    } else if (a == "--nhwc-layout") {
      context_options.nhwcLayout = true;
    } else if (a == "--int8-activations") {
      context_options.int8MatmulActivations = true;
    } else if (a == "--policy") {
      const std::string& name = walk.Value();
      bool known = false;
      for (MLPowerPreference p : {MLPowerPreference::kDefault, MLPowerPreference::kHighPerformance,
                                  MLPowerPreference::kLowPower, MLPowerPreference::kFallback,
                                  MLPowerPreference::kLowLatency})
        if (name == ToString(p)) context_options.powerPreference = p, known = true;
      if (!known)
        throw std::invalid_argument("--policy: unknown policy '" + name +
                                    "' (default, high-performance, low-power, fallback, low-latency)");
    } else if (a == "--strict-placement") {
      context_options.strictPlacement = true;
    } else if (a == "--weights") {
      load.weights_path = walk.Value();
    } else if (a == "--stream-weights") {
      load.stream_chunk_bytes = ParseBytes(walk.Value(), "--stream-weights");
    } else if (a == "--manifest") {
      load.manifest_path = walk.Value();
    } else if (a == "--input") {
      auto [k, v] = SplitAssign(walk.Value(), "--input");
      run.input_files[k] = v;
    } else if (a == "--reference") {
      auto [k, v] = SplitAssign(walk.Value(), "--reference");
      run.reference_files[k] = v;
    } else if (a == "--dim") {
      auto [k, v] = SplitAssign(walk.Value(), "--dim");
      run.dims[k] = ParseUint32(v, "--dim " + k);
    } else if (a == "--seed") {
      run.seed = std::stoull(walk.Value());
    } else if (a == "--tolerance") {
      run.tolerance = std::stod(walk.Value());
    } else if (a == "--save") {
      run.save_dir = walk.Value();
    } else if (a == "--staging-limit") {
      context_options.constantStagingLimit = ParseBytes(walk.Value(), "--staging-limit");
    } else if (a == "--memory-limit") {
      context_options.memoryLimit = ParseBytes(walk.Value(), "--memory-limit");
    } else if (a == "--memory") {
      run.print_memory = true;
    } else if (a == "--profile") {
      run.profile = true;
    } else if (a == "--iterations") {
      run.iterations = std::max(1, std::stoi(walk.Value()));
    } else if (a == "--print") {
      run.print_values = true;
    } else if (a == "--print-limit") {
      run.print_limit = ParseUint32(walk.Value(), "--print-limit");
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option " + a + " (see --help)");
    } else {
      graph_path = a;
    }
  }
  if (graph_path.empty()) throw std::invalid_argument("no graph file given (see --help)");

  // An ONNX model is converted first, into a directory removed on return.
  std::optional<TemporaryDirectory> converted;
  if (std::filesystem::path(graph_path).extension() == ".onnx") {
    converted.emplace("webnn-run");
    const std::filesystem::path json = converted->path() / std::filesystem::path(graph_path).filename().replace_extension(".json");
    std::printf("converting %s with onnx2webnn (`webnn convert %s -o FILE.json` keeps the result)\n",
                graph_path.c_str(), graph_path.c_str());
    std::fflush(stdout);
    ConvertOnnx(graph_path, json.string(), {});
    graph_path = json.string();
  }

  MLContext context = ML::createContext(context_options);
  MLGraph built;  // once loaded: the report names its arena
  try {
    return RunGraph(context, graph_path, run, built);
  } catch (const QuotaExceededError&) {
    // What was in use when the limit was hit.
    if (run.print_memory) PrintMemory(context, built.impl() ? &built : nullptr, false);
    throw;
  }
}

int RunGraph(MLContext& context, const std::string& graph_path, const RunOptions& run, MLGraph& built) {
  const auto t0 = Clock::now();
  io::LoadedGraph loaded = LoadWithProgress(context, graph_path, run.load);
  built = loaded.graph;
  const auto t1 = Clock::now();
  CheckNames(loaded, run);
  std::printf("graph: %s%s%s on device %s\n", graph_path.c_str(), loaded.name.empty() ? "" : " (",
              loaded.name.empty() ? "" : (loaded.name + ")").c_str(), context.deviceName().c_str());
  std::printf("load + build: %.2f ms\n", Ms(t1 - t0));
  std::printf("program: %s\n", ProgramSummary(loaded.graph).c_str());
  std::printf("placement: %s\n", PlacementSummary(loaded.graph).c_str());

  // Inputs: concrete shapes (dynamic dims from --dim or maxSize) and data.
  std::mt19937_64 rng(run.seed);
  MLNamedTensors inputs, outputs;
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  for (const auto& [name, desc] : loaded.inputs) {
    std::vector<uint32_t> shape;
    for (const MLDimension& d : desc.shape) {
      if (!d.isDynamic()) {
        shape.push_back(static_cast<uint32_t>(d.size()));
        continue;
      }
      auto it = run.dims.find(d.name());
      shape.push_back(it != run.dims.end() ? it->second : static_cast<uint32_t>(d.size()));
    }
    std::vector<std::byte> data;
    auto file = run.input_files.find(name);
    if (file != run.input_files.end()) {
      io::NpyArray npy = io::ReadNpy(file->second);
      if (npy.dataType != desc.dataType)
        throw DataError("input '" + name + "': " + file->second + " holds " + std::string(ToString(npy.dataType)) +
                        ", the graph wants " + std::string(ToString(desc.dataType)));
      shape = npy.shape;
      data = std::move(npy.data);
    } else {
      data = RandomData(desc.dataType, core::ElementCount(shape), rng);
    }
    MLTensor t = context.createTensor({desc.dataType, shape, false, true});
    context.writeTensor(t, MLBufferSource(std::span<const std::byte>(data)));
    inputs[name] = t;
    input_shapes[name] = shape;
    std::printf("input  %-20s %-8s %s%s\n", name.c_str(), std::string(ToString(desc.dataType)).c_str(),
                ShapeString(shape).c_str(), file != run.input_files.end() ? "" : " (random)");
  }
  std::map<std::string, std::vector<uint32_t>> output_shapes = loaded.graph.computeShapes(input_shapes);
  for (const auto& [name, desc] : loaded.outputs)
    outputs[name] = context.createTensor({desc.dataType, output_shapes.at(name), true, false});

  // Warm-up (also the timed run when --iterations is 1), then timed runs.
  auto t2 = Clock::now();
  context.dispatch(loaded.graph, inputs, outputs);
  std::map<std::string, std::vector<std::byte>> results;
  for (const auto& [name, t] : outputs) results[name] = context.readTensor(t);
  const double first_ms = Ms(Clock::now() - t2);
  std::vector<double> times;
  const int iterations = run.iterations;
  for (int k = 0; k < iterations && iterations > 1; ++k) {
    auto s = Clock::now();
    context.dispatch(loaded.graph, inputs, outputs);
    // Into the first read's buffers, as an application reusing them would:
    // a new vector per read would time the allocator and page faults too
    // (~60 ms per run for a decoder's 78 MB of prefill logits).
    for (const auto& [name, t] : outputs)
      context.readTensor(t, MLMutableBufferSource(std::span<std::byte>(results[name])));
    times.push_back(Ms(Clock::now() - s));
  }
  std::printf("first dispatch + read: %.3f ms\n", first_ms);
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    std::printf("dispatch + read over %d runs: median %.3f ms, min %.3f ms, max %.3f ms\n", iterations,
                times[times.size() / 2], times.front(), times.back());
  }

  if (run.profile) PrintProfile(context, loaded.graph, inputs, outputs, std::max(iterations, 1));

  bool within_tolerance = true;
  for (const auto& [name, desc] : loaded.outputs) {
    const std::vector<uint32_t>& shape = output_shapes.at(name);
    const std::vector<std::byte>& data = results[name];
    const uint64_t n = core::ElementCount(shape);
    double mn = INFINITY, mx = -INFINITY, sum = 0, sum2 = 0;
    uint64_t nan = 0, inf = 0;
    for (uint64_t k = 0; k < n; ++k) {
      const double v = core::ElementAsDouble(data, desc.dataType, k);
      if (std::isnan(v)) {
        ++nan;
        continue;
      }
      if (std::isinf(v)) ++inf;
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      sum += v;
      sum2 += v * v;
    }
    const double count = static_cast<double>(n - nan);
    const double mean = count > 0 ? sum / count : 0;
    const double stddev = count > 0 ? std::sqrt(std::max(0.0, sum2 / count - mean * mean)) : 0;
    std::printf("output %-20s %-8s %s min %.6g max %.6g mean %.6g std %.6g", name.c_str(),
                std::string(ToString(desc.dataType)).c_str(), ShapeString(shape).c_str(), mn, mx, mean, stddev);
    if (nan || inf) std::printf(" nan %llu inf %llu", static_cast<unsigned long long>(nan), static_cast<unsigned long long>(inf));
    std::printf("\n");

    if (run.print_values) PrintValues(data, desc.dataType, shape, run.print_limit);

    auto ref = run.reference_files.find(name);
    if (ref != run.reference_files.end()) {
      io::NpyArray r = io::ReadNpy(ref->second);
      if (r.shape != shape) throw DataError("reference for '" + name + "' has shape " + ShapeString(r.shape));
      double max_abs = 0, max_ref = 0, max_rel = 0;
      for (uint64_t k = 0; k < n; ++k) {
        const double ours = core::ElementAsDouble(data, desc.dataType, k);
        const double want = core::ElementAsDouble(r.data, r.dataType, k);
        const double diff = std::fabs(ours - want);
        max_abs = std::max(max_abs, std::isnan(diff) ? INFINITY : diff);
        max_ref = std::max(max_ref, std::fabs(want));
        if (want != 0) max_rel = std::max(max_rel, diff / std::fabs(want));
      }
      const double scaled = max_ref > 0 ? max_abs / max_ref : max_abs;
      std::printf("  vs %s: max abs error %.3g, max |ours-ref|/max|ref| %.3g, max elementwise rel error %.3g\n",
                  ref->second.c_str(), max_abs, scaled, max_rel);
      if (run.tolerance >= 0 && !(scaled <= run.tolerance)) within_tolerance = false;
    }
    if (!run.save_dir.empty()) {
      std::filesystem::create_directories(run.save_dir);
      io::WriteNpy((std::filesystem::path(run.save_dir) / (name + ".npy")).string(), {desc.dataType, shape, data});
    }
  }
  if (run.print_memory) PrintMemory(context, &loaded.graph, true);
  if (!within_tolerance) {
    std::printf("FAILED: an output exceeds --tolerance %g\n", run.tolerance);
    return 1;
  }
  return 0;
}

}  // namespace webnn::cli
