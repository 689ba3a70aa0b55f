// webnn bench: one operation at given shapes, timed by the microbenchmark
// engine that calibration and kernel tuning use (qos/microbench.h), with its
// rate against the machine's measured peaks (qos/peak.h). For kernel
// engineers (issue 11): "is this conv at 40% of the FMA peak or at 90%?"
//
// The graph is built through the same WebIDL binding as graph files
// (io/op_binding.h), so an op takes here exactly the arguments it takes there.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <list>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/impl.h"
#include "cli_args.h"
#include "commands.h"
#include "core/shape.h"
#include "io/js_value.h"
#include "io/op_binding.h"
#include "ops/op_kind.h"
#include "ops/schema.h"
#include "qos/microbench.h"
#include "qos/peak.h"
#include "scheduler/cpu_threads.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

using io::JsValue;
using io::ParamInfo;

void Usage() {
  std::printf(
      "usage: webnn bench OP [--shape D0,D1,...]... [--const-shape D0,D1,...]... [--arg JSON]...\n"
      "                      [--options JSON] [--dtype T] [--device D] [--threads N] [--samples N] [--json]\n"
      "Builds a graph of the one operation OP (a builder method: conv2d, matmul, softmax, ...), times\n"
      "dispatch + readback of its outputs, and prints the median time, GFLOP/s, GB/s and the %% of the\n"
      "machine's measured peak.\n"
      "\n"
      "  --shape D0,D1,...[:T]  the op's next operand, a graph input with random data (repeatable; \"\"\n"
      "                         or \":T\" alone is a scalar)\n"
      "  --const-shape ...      the op's next operand, a constant with random data\n"
      "                         Operands fill the op's operand parameters in the order given (a list\n"
      "                         parameter, concat's inputs, takes the rest); operands beyond them fill its\n"
      "                         operand-valued options in order (conv2d's bias, gemm's c, ...).\n"
      "  --arg JSON             the op's next non-operand parameter (softmax's axis, reshape's newShape,\n"
      "                         split's splits, ...), as JSON (repeatable, in order); a bare word is a\n"
      "                         string (cast's dataType: --arg float16)\n"
      "  --options JSON         the options dictionary, as in a graph file (unknown members are an error)\n"
      "  --dtype T              data type of the operands (default float32); :T after a shape sets one\n"
      "                         operand's. An operand whose parameter does not take T gets the type of the\n"
      "                         operand it must match, or the first type it takes (gather's indices int32,\n"
      "                         where's condition uint8)\n"
      "  --device D             cpu (default), gpu, reference or auto\n"
      "  --threads N            cpu threads of the context (default: all cores); the peaks are measured at\n"
      "                         as many threads\n"
      "  --samples N            exactly N timed samples per measurement (default: 3 to 25, at least 20 ms\n"
      "                         and at most 1 s, after a warm-up)\n"
      "  --json                 one JSON line with the fields below instead of the report\n"
      "\n"
      "Random data: floats uniform in [-1, 1); integers uniform in 0..3 (valid indices of most axes),\n"
      "uint8 0 or 1 (a where() condition); the same every run.\n"
      "\n"
      "Timing (the engine of calibration and tuning): a warm-up, then samples of two candidates\n"
      "interleaved: dispatch + readback timed by wall clock, and a profiled dispatch + readback timed by\n"
      "the sum of its steps' times (the kernels alone). On the cpu device the medians leave out samples\n"
      "in which the process had less CPU time than its threads could use (another process took the\n"
      "cores): they are counted as 'disturbed'. GFLOP/s and GB/s: the steps' flops (2 per multiply-add of\n"
      "matmul, gemm, conv2d, convTranspose2d; 0 for other ops) and bytes (every input read once, every\n"
      "output written once) over the kernels' median time. %% of peak: against the FMA peak when the op\n"
      "is flops-bound at the measured peaks (flops / peak GFLOP/s > bytes / peak GB/s), else against the\n"
      "triad bandwidth of memory (data that stays in the caches goes over 100%% of it). Both peaks are\n"
      "measured at the context's threads (about 0.3 s, qos/peak.h); on the gpu they are the host's.\n"
      "\n"
      "examples:\n"
      "  webnn bench conv2d --shape 1,64,56,56 --const-shape 64,64,3,3 --options '{\"padding\":[1,1,1,1]}'\n"
      "  webnn bench matmul --shape 1024,1024 --const-shape 1024,1024\n"
      "  webnn bench add --shape 1048576 --shape 1048576\n"
      "  webnn bench softmax --shape 64,1000 --arg 1\n"
      "  webnn bench gather --shape 1000,512 --shape 64\n"
      "\n"
      "--json fields: op, device, device_description, cpu, threads, dtype, operands [{name, shape, dtype,\n"
      "constant}], outputs [shapes], median_ms, min_ms, samples, disturbed (dispatch + readback),\n"
      "kernel_median_ms, kernel_min_ms, kernel_samples, kernel_disturbed, steps [{op, device, ms, flops,\n"
      "bytes}], flops, bytes, gflops, gbps, bound (\"flops\" or \"bytes\"), peak_gflops, peak_gbps,\n"
      "peak_vector_bits, peak_percent, host_peak. Times not measured (a gpu without timestamps) are null.\n");
}

struct OperandSpec {
  std::vector<uint32_t> shape;
  std::optional<MLOperandDataType> type;
  bool constant = false;
};

struct BenchArgs {
  std::string op;
  std::vector<OperandSpec> operands;  // --shape and --const-shape, in the order given
  std::vector<std::string> values;    // --arg
  std::string options = "{}";
  MLOperandDataType dtype = MLOperandDataType::kFloat32;
  MLDeviceType device = MLDeviceType::kCpu;
  uint32_t threads = 0, samples = 0;
  bool json = false, help = false;
};

// "D0,D1,...[:TYPE]"; "" or ":TYPE" is a scalar.
OperandSpec ParseOperand(const std::string& text, bool constant, const std::string& flag) {
  OperandSpec s;
  s.constant = constant;
  const size_t colon = text.find(':');
  if (colon != std::string::npos)
    s.type = io::ToDataType(JsValue::String(text.substr(colon + 1)), flag + " " + text);
  const std::string dims = text.substr(0, colon);
  for (size_t begin = 0; begin < dims.size();) {
    const size_t end = std::min(dims.find(',', begin), dims.size());
    s.shape.push_back(ParseUint32(dims.substr(begin, end - begin), flag + " " + text));
    begin = end + 1;
  }
  return s;
}

BenchArgs ParseArgs(const Args& args) {
  BenchArgs b;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") b.help = true;
    else if (a == "--shape" || a == "--const-shape")
      b.operands.push_back(ParseOperand(walk.Value(), a == "--const-shape", a));
    else if (a == "--arg") b.values.push_back(walk.Value());
    else if (a == "--options") b.options = walk.Value();
    else if (a == "--dtype") b.dtype = io::ToDataType(JsValue::String(walk.Value()), "--dtype");
    else if (a == "--device") b.device = ParseDevice(walk.Value());
    else if (a == "--threads") b.threads = ParseUint32(walk.Value(), "--threads");
    else if (a == "--samples") {
      b.samples = ParseUint32(walk.Value(), "--samples");
      if (b.samples == 0) throw std::invalid_argument("--samples: at least 1");
    } else if (a == "--json") b.json = true;
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a + " (see --help)");
    else if (b.op.empty()) b.op = a;
    else throw std::invalid_argument("one operation only, got '" + b.op + "' and '" + a + "'");
  }
  if (!b.help && b.op.empty()) throw std::invalid_argument("no operation given (see --help)");
  return b;
}

// What `op` takes, for the error when the arguments do not match it.
std::string Signature(const std::string& op, const std::vector<ParamInfo>& params, const ops::OpSchema& schema) {
  std::string operands, values, optional;
  auto add = [](std::string& list, const std::string& name) { list += (list.empty() ? "" : ", ") + name; };
  for (const ParamInfo& p : params)
    add(p.kind == ParamInfo::Kind::kValue ? values : operands,
        p.name + (p.kind == ParamInfo::Kind::kOperandList ? "..." : ""));
  for (const ops::TensorSlot& s : schema.inputs)
    if (s.optional) add(optional, std::string(s.name));
  return op + " takes operands " + (operands.empty() ? "none" : operands) + " (--shape or --const-shape each" +
         (optional.empty() ? "" : "; then optionally " + optional) + ") and values " +
         (values.empty() ? "none" : values) + " (--arg JSON each)";
}

struct Operand {
  std::string name;
  std::vector<uint32_t> shape;
  MLOperandDataType type;
  bool constant;
};

// The one-op graph, its tensors and the buffers the outputs are read into.
struct OneOpGraph {
  std::vector<Operand> operands;
  MLGraph graph;
  MLNamedTensors inputs, outputs;
  std::map<std::string, std::vector<std::byte>> results;
  std::vector<std::vector<uint32_t>> output_shapes;
};

OneOpGraph Build(MLContext& context, const BenchArgs& args) {
  const std::vector<ParamInfo>* params = io::OpParams(args.op);
  const std::optional<ops::OpKind> kind = ops::ParseOpKind(args.op);
  if (!params || !kind) {
    std::string near;  // the same name in another case: MatMul, Conv2D
    for (ops::OpKind k : ops::kAllOps) {
      const std::string name(ops::OpName(k));
      if (std::equal(name.begin(), name.end(), args.op.begin(), args.op.end(),
                     [](char x, char y) { return std::tolower(x) == std::tolower(y); }))
        near = " (did you mean '" + name + "'?)";
    }
    throw std::invalid_argument("'" + args.op + "' is not one of the " + std::to_string(std::size(ops::kAllOps)) +
                                " WebNN operations" + near + "; `webnn info` lists them");
  }
  const ops::OpSchema& schema = ops::GetSchema(*kind);
  const std::string signature = Signature(args.op, *params, schema);
  size_t operands_used = 0, values_used = 0;
  for (const ParamInfo& p : *params) (p.kind == ParamInfo::Kind::kValue ? values_used : operands_used) += 1;
  size_t optional_slots = 0;
  for (const ops::TensorSlot& s : schema.inputs) optional_slots += s.optional;
  const bool has_list = std::any_of(params->begin(), params->end(),
                                    [](const ParamInfo& p) { return p.kind == ParamInfo::Kind::kOperandList; });
  if (args.values.size() != values_used || args.operands.size() < operands_used ||
      (!has_list && args.operands.size() > operands_used + optional_slots))
    throw std::invalid_argument(std::to_string(args.operands.size()) + " operand(s) and " +
                                std::to_string(args.values.size()) + " value(s) given; " + signature);

  OneOpGraph b;
  MLGraphBuilder builder(context);
  std::mt19937_64 rng(1);
  std::list<std::vector<std::byte>> constant_data;  // alive until build()
  std::vector<std::optional<MLOperandDataType>> slot_types(schema.inputs.size());
  size_t next = 0;
  // The next operand spec as the operand of schema slot `slot`.
  auto operand = [&](const std::string& name, size_t slot) {
    const OperandSpec& spec = args.operands[next++];
    const ops::TensorSlot* s = slot < schema.inputs.size() ? &schema.inputs[slot] : nullptr;
    MLOperandDataType type = args.dtype;
    if (spec.type) type = *spec.type;
    else if (s && s->same_as >= 0) type = slot_types[s->same_as].value_or(type);
    else if (s && !s->allowed.Empty() && !s->allowed.Contains(type)) type = s->allowed.ToVector()[0];
    if (s) slot_types[slot] = type;
    b.operands.push_back({name, spec.shape, type, spec.constant});
    const MLOperandDescriptor desc{type, std::vector<MLDimension>(spec.shape.begin(), spec.shape.end())};
    // cli_args.h's random data (see Usage); the seed is fixed: every run times the same numbers.
    const std::vector<std::byte>& data =
        constant_data.emplace_back(RandomData(type, core::ElementCount(spec.shape), rng));
    const MLBufferSource source{std::span<const std::byte>(data)};
    if (spec.constant) return JsValue::Operand(builder.constant(desc, source));
    MLTensor t = context.createTensor({type, spec.shape, false, true});
    context.writeTensor(t, source);
    b.inputs[name] = t;
    return JsValue::Operand(builder.input(name, desc));
  };

  std::vector<JsValue> call;
  size_t slot = 0;  // operand parameters are the schema's first input slots
  size_t value = 0;
  for (const ParamInfo& p : *params) {
    if (p.kind == ParamInfo::Kind::kValue) {
      // JSON; a bare word is a string (cast's dataType: --arg float16).
      const std::string& text = args.values[value++];
      call.push_back(!text.empty() && std::isalpha(static_cast<unsigned char>(text[0])) && text != "true" &&
                             text != "false" && text != "null"
                         ? JsValue::String(text)
                         : io::JsValueFromJson(io::ParseJsonDocument(text, "--arg for " + p.name)));
    } else if (p.kind == ParamInfo::Kind::kOperand) {
      call.push_back(operand(p.name, slot++));
    } else {
      JsValue list = JsValue::Array();
      for (int i = 0; next < args.operands.size(); ++i) list.items.push_back(operand(p.name + std::to_string(i), slot));
      call.push_back(std::move(list));
      ++slot;
    }
  }
  const nlohmann::json options = io::ParseJsonDocument(args.options, "--options");
  if (!options.is_object()) throw std::invalid_argument("--options: a JSON object, got '" + args.options + "'");
  JsValue dict = io::JsValueFromJson(options);
  for (size_t s = 0; s < schema.inputs.size() && next < args.operands.size(); ++s)
    if (schema.inputs[s].optional && !dict.Get(std::string(schema.inputs[s].name))) {
      const std::string name(schema.inputs[s].name);
      dict.Set(name, operand(name, s));
    }
  call.push_back(std::move(dict));

  const std::vector<MLOperand> results = io::InvokeOp(builder, args.op, call, /*strict=*/true);
  // Outputs by index ("output", or "output0", "output1", ... for split, gru, lstm).
  std::vector<std::string> names;
  MLNamedOperands named;
  for (size_t i = 0; i < results.size(); ++i)
    named[names.emplace_back("output" + (results.size() > 1 ? std::to_string(i) : ""))] = results[i];
  b.graph = builder.build(named);
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  for (const Operand& o : b.operands)
    if (!o.constant) input_shapes[o.name] = o.shape;
  const auto shapes = b.graph.computeShapes(input_shapes);
  const auto descriptors = b.graph.outputDescriptors();
  for (const std::string& name : names) {
    const MLOperandDataType type = descriptors.at(name).dataType;
    b.outputs[name] = context.createTensor({type, shapes.at(name), true, false});
    b.results[name].resize(ByteLengthFor(type, core::ElementCount(shapes.at(name))));
    b.output_shapes.push_back(shapes.at(name));
  }
  return b;
}

// "Intel(R) Xeon(R) ..." from /proc/cpuinfo; "" where there is none.
std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find_first_not_of(" \t", line.find(':') + 1));
  return "";
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

}  // namespace

int Bench(const Args& argv) {
  const BenchArgs args = ParseArgs(argv);
  if (args.help) {
    Usage();
    return 0;
  }
  MLContext context = ML::createContext({.device = args.device, .numThreads = args.threads});
  OneOpGraph b = Build(context, args);
  const MLDeviceType device = context.deviceType();
  const unsigned pool = static_cast<unsigned>(scheduler::CpuThreadCount());
  const unsigned threads = args.threads ? std::min(args.threads, pool) : pool;

  auto run = [&](bool profile) {
    MLDispatchOptions options;
    options.profile = profile;
    context.dispatch(b.graph, b.inputs, b.outputs, options);
    for (const auto& [name, t] : b.outputs)
      context.readTensor(t, MLMutableBufferSource(std::span<std::byte>(b.results[name])));
  };
  qos::TimingOptions timing;
  // The CPU-time check holds where our threads do the work: the cpu device's
  // kernels use them all, the reference device's at least one; a gpu
  // dispatch leaves them waiting.
  timing.threads = device == MLDeviceType::kCpu ? threads : device == MLDeviceType::kReference ? 1 : 0;
  if (args.samples) {
    timing.min_samples = timing.max_samples = static_cast<int>(args.samples);
    timing.min_seconds = 0;
    timing.max_seconds = INFINITY;
  }
  MLGraphProfile profile;
  // Per step, its times in the profiled samples; those the CPU-time check
  // (as qos::MeasureInterleaved's) passes, and all.
  std::vector<std::vector<double>> step_ms, step_ms_all;
  int profiled = 0;
  const qos::Sample candidates[] = {
      [&]() -> double {
        run(false);
        return NAN;  // timed by wall clock
      },
      [&]() -> double {
        const double cpu0 = qos::ProcessCpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        run(true);  // the reads waited for the dispatch: its profile is complete
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const bool clean = qos::ProcessCpuSeconds() - cpu0 >= timing.busy_cpu_fraction * timing.threads * wall;
        profile = b.graph.profile();
        const bool sample = profiled++ >= timing.warmup;  // not the warm-up
        double ms = 0;
        step_ms.resize(profile.steps.size());
        step_ms_all.resize(profile.steps.size());
        for (size_t s = 0; s < profile.steps.size() && sample; ++s) {
          if (clean) step_ms[s].push_back(profile.steps[s].ms);
          step_ms_all[s].push_back(profile.steps[s].ms);
        }
        for (const MLStepProfile& s : profile.steps) ms += s.ms;
        return ms;  // NaN where a step was not timed: then the wall clock
      }};
  const std::vector<qos::Timing> t = qos::MeasureInterleaved(candidates, timing);
  auto step_median = [&](size_t s) { return Median(step_ms[s].empty() ? step_ms_all[s] : step_ms[s]); };
  const qos::Timing& wall = t[0];
  // Not where the op compiled to no step (identity) or a step was not timed.
  const bool kernels_timed =
      !profile.steps.empty() &&
      std::none_of(profile.steps.begin(), profile.steps.end(), [](const MLStepProfile& s) { return std::isnan(s.ms); });
  const qos::Timing kernel = kernels_timed ? t[1] : qos::Timing{NAN, NAN, 0, 0, 0};

  const qos::MachinePeaks& peaks = qos::MeasuredPeaks(threads);
  // After the peaks: the description's hwy::SupportedTargets() makes later
  // dispatches forget WEBNN_CPU_MAX_TARGET (Highway 1.0.3 re-chooses the
  // target). The context's own device, not ML::devices(), which would open
  // every device (a Vulkan driver) to list them.
  const std::string description = context.impl()->device().description();
  double flops = 0, bytes = 0;
  for (const MLStepProfile& s : profile.steps) {
    flops += s.flops;
    bytes += s.bytes;
  }
  const double ms = kernels_timed ? kernel.median_ms : wall.median_ms;
  const double gflops = flops / (ms * 1e6), gbps = bytes / (ms * 1e6);
  const bool flops_bound = flops / peaks.fma_gflops > bytes / peaks.bandwidth_gbps;
  const double percent = 100 * (flops_bound ? gflops / peaks.fma_gflops : gbps / peaks.bandwidth_gbps);
  const bool host_peak = device != MLDeviceType::kCpu;
  const std::string device_name(ToString(device));

  if (args.json) {
    using nlohmann::json;
    auto number = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    json j = {{"op", args.op}, {"device", device_name}, {"device_description", description}, {"cpu", CpuModel()},
              {"threads", threads}, {"dtype", std::string(ToString(args.dtype))}};
    for (const Operand& o : b.operands)
      j["operands"].push_back(
          {{"name", o.name}, {"shape", o.shape}, {"dtype", std::string(ToString(o.type))}, {"constant", o.constant}});
    j["outputs"] = b.output_shapes;
    j.update({{"median_ms", number(wall.median_ms)}, {"min_ms", number(wall.min_ms)}, {"samples", wall.samples},
              {"disturbed", wall.disturbed}, {"kernel_median_ms", number(kernel.median_ms)},
              {"kernel_min_ms", number(kernel.min_ms)}, {"kernel_samples", kernel.samples},
              {"kernel_disturbed", kernel.disturbed}});
    j["steps"] = json::array();
    for (size_t s = 0; s < profile.steps.size(); ++s)
      j["steps"].push_back({{"op", profile.steps[s].op}, {"device", std::string(ToString(profile.steps[s].device))},
                            {"ms", number(step_median(s))}, {"flops", profile.steps[s].flops},
                            {"bytes", profile.steps[s].bytes}});
    j.update({{"flops", flops}, {"bytes", bytes}, {"gflops", number(gflops)}, {"gbps", number(gbps)},
              {"bound", flops_bound ? "flops" : "bytes"}, {"peak_gflops", number(peaks.fma_gflops)},
              {"peak_gbps", number(peaks.bandwidth_gbps)}, {"peak_vector_bits", peaks.fma_vector_bits},
              {"peak_percent", number(percent)}, {"host_peak", host_peak}});
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }

  std::printf("op: %s", args.op.c_str());
  for (const Operand& o : b.operands)
    std::printf("%s %s %s %s%s", &o == b.operands.data() ? "" : ",", o.name.c_str(),
                std::string(ToString(o.type)).c_str(), ShapeString(o.shape).c_str(), o.constant ? " (constant)" : "");
  for (size_t i = 0; i < b.output_shapes.size(); ++i)
    std::printf("%s%s", i ? ", " : " -> ", ShapeString(b.output_shapes[i]).c_str());
  std::printf("\ndevice: %s (%s), %u threads", device_name.c_str(), description.c_str(), threads);
  if (const std::string cpu = CpuModel(); !cpu.empty()) std::printf("; cpu: %s", cpu.c_str());
  std::printf("\ndispatch + read: median %.4f ms, min %.4f ms, %d samples (%d disturbed)\n", wall.median_ms,
              wall.min_ms, wall.samples, wall.disturbed);
  if (kernels_timed)
    std::printf("kernels (profiled steps): median %.4f ms, min %.4f ms, %d samples (%d disturbed)\n",
                kernel.median_ms, kernel.min_ms, kernel.samples, kernel.disturbed);
  else
    std::printf("kernels: not timed by the device; rates below are of dispatch + read\n");
  for (size_t s = 0; s < profile.steps.size(); ++s) {
    const MLStepProfile& p = profile.steps[s];
    const std::string shape = p.outputShapes.empty() ? "" : ShapeString(p.outputShapes[0]);
    std::printf("  step %zu: %s on %s -> %s: median %.4f ms, %.4g GFLOP, %.4g MB\n", s, p.op.c_str(),
                std::string(ToString(p.device)).c_str(), shape.c_str(), step_median(s), p.flops * 1e-9, p.bytes * 1e-6);
  }
  std::printf("rate (%s): ", kernels_timed ? "kernels" : "dispatch + read");
  if (flops > 0) std::printf("%.2f GFLOP/s, ", gflops);
  std::printf("%.2f GB/s\n", gbps);
  std::printf("peaks%s at %u threads: FMA %.1f GFLOP/s (%u-bit vectors), triad %.1f GB/s\n",
              host_peak ? " (the host's)" : "", threads, peaks.fma_gflops, peaks.fma_vector_bits,
              peaks.bandwidth_gbps);
  std::printf("%.1f%% of the %s peak (%s-bound at these peaks)%s\n", percent, flops_bound ? "FMA" : "bandwidth",
              flops_bound ? "flops" : "bytes",
              percent <= 100 ? ""
              : flops_bound  ? "; over 100%: the peak was measured while other work took the cores"
                             : "; over 100%: the data stays in the caches, the peak is memory's");
  return 0;
}

}  // namespace webnn::cli
