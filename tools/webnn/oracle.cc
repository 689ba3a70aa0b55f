// webnn oracle: the engine as the oracle other WebNN implementations check
// their numbers against. Computes a graph's outputs on the reference device
// as float64 before their final rounding (api/unrounded_outputs.h), and
// scores candidate outputs (.npy) against them: a ULP histogram, the largest
// errors and a PASS/FAIL verdict under WPT's tolerances summed over each
// output's cone (io/wpt_tolerance.h). docs/ORACLE.md describes all of it.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/impl.h"
#include "api/unrounded_outputs.h"
#include "cli_args.h"
#include "commands.h"
#include "core/shape.h"
#include "io/npy.h"
#include "io/oracle_score.h"
#include "io/webnn_graph.h"
#include "io/wpt_tolerance.h"
#include "progress.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

void Usage() {
  std::printf(
      "usage: webnn oracle GRAPH.json --input NAME=FILE.npy ... --candidate OUTPUT=FILE.npy ... [options]\n"
      "Scores another implementation's outputs of a webnn-graph against the truth computed on the\n"
      "reference device, and prints per candidate a histogram of ULP distances, NaN/Inf mismatches,\n"
      "the largest absolute and relative errors, and a verdict under WPT's tolerances.\n"
      "\n"
      "The truth: every op in float64 (the reference device's kernels), each intermediate tensor\n"
      "rounded once to its data type as the graph says (round to nearest even), and each float\n"
      "output's last op NOT rounded: its float64 value. Where that last op only moves data\n"
      "(reshape, transpose, slice, concat, gather, ...) the truth is the value it moved, already of\n"
      "the output's type. ULP distances are in the output's type, from the truth rounded to it:\n"
      "+0 and -0 are 0 apart, NaN matches NaN, NaN against a number and an infinity against\n"
      "anything else are mismatches. Tolerance of an output: the sum of WPT's per-op tolerances over\n"
      "the ops it depends on (ULP; sin, cos, tan, erf add an absolute tolerance). docs/ORACLE.md.\n"
      "\n"
      "  --input NAME=FILE.npy      every graph input (the data the candidate was computed from)\n"
      "  --candidate OUTPUT=FILE.npy  an output to score (repeatable); its dtype and shape must be\n"
      "                             the output's\n"
      "  --weights FILE             .weights or .safetensors (default: next to GRAPH.json)\n"
      "  --manifest FILE            manifest of a .weights file (default: <weights>.manifest.json)\n"
      "  --dim NAME=SIZE            check that the inputs give dynamic dimension NAME this size\n"
      "  --save-float64 DIR         write the truth of every output as DIR/<output>.npy ('<f8')\n"
      "  --device-check D           also score this engine's device D (cpu, gpu) on the same inputs\n"
      "exit status: 0 every candidate PASSes, 1 one FAILs, 2 usage errors (names, files, shapes).\n");
}

struct OracleArgs {
  std::string graph_path;
  io::GraphLoadOptions load;
  std::map<std::string, std::string> inputs, candidates;
  std::map<std::string, uint32_t> dims;
  std::string save_dir;
  std::optional<MLDeviceType> device_check;
  bool help = false;
};

OracleArgs ParseArgs(const Args& args) {
  OracleArgs o;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    auto assign = [&](std::map<std::string, std::string>& into, const char* flag) {
      auto [k, v] = SplitAssign(walk.Value(), flag);
      if (!into.emplace(k, v).second) throw std::invalid_argument(std::string(flag) + " " + k + " given twice");
    };
    if (a == "--help" || a == "-h") o.help = true;
    else if (a == "--input") assign(o.inputs, "--input");
    else if (a == "--candidate") assign(o.candidates, "--candidate");
    else if (a == "--weights") o.load.weights_path = walk.Value();
    else if (a == "--manifest") o.load.manifest_path = walk.Value();
    else if (a == "--dim") {
      auto [k, v] = SplitAssign(walk.Value(), "--dim");
      o.dims[k] = ParseUint32(v, "--dim " + k);
    } else if (a == "--save-float64") o.save_dir = walk.Value();
    else if (a == "--device-check") o.device_check = ParseDevice(walk.Value());
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a + " (see --help)");
    else if (o.graph_path.empty()) o.graph_path = a;
    else throw std::invalid_argument("one graph file only, got '" + o.graph_path + "' and '" + a + "'");
  }
  if (o.help) return o;
  if (o.graph_path.empty()) throw std::invalid_argument("no graph file given (see --help)");
  if (o.candidates.empty() && o.save_dir.empty() && !o.device_check)
    throw std::invalid_argument("nothing to do: give --candidate, --save-float64 or --device-check (see --help)");
  return o;
}

// Every name of `given` must be a key of `valid` (TypeError naming it and the
// valid ones); with `all`, every key of `valid` must be given.
template <typename A, typename B>
void CheckNames(const A& given, const B& valid, const char* what, bool all) {
  for (const auto& [name, unused] : given)
    if (!valid.count(name))
      throw TypeError("the graph has no " + std::string(what) + " '" + name + "' (its " + what + "s: " +
                      NameList(valid) + ")");
  if (!all) return;
  std::map<std::string, int> missing;
  for (const auto& [name, unused] : valid)
    if (!given.count(name)) missing[name];
  if (!missing.empty())
    throw TypeError("no --" + std::string(what) + " for " + NameList(missing) +
                    " (the truth needs the data the candidate was computed from)");
}

// The graph's inputs from their .npy files, as tensors of `context`.
MLNamedTensors LoadInputs(MLContext& context, const io::LoadedGraph& loaded, const OracleArgs& args,
                          std::map<std::string, io::NpyArray>& arrays) {
  MLNamedTensors tensors;
  for (const auto& [name, desc] : loaded.inputs) {
    const std::string& file = args.inputs.at(name);
    io::NpyArray npy = io::ReadNpy(file);
    if (npy.dataType != desc.dataType)
      throw DataError("input '" + name + "': " + file + " holds " + std::string(ToString(npy.dataType)) +
                      ", the graph wants " + std::string(ToString(desc.dataType)));
    for (size_t d = 0; d < desc.shape.size() && d < npy.shape.size(); ++d) {
      auto dim = desc.shape[d].isDynamic() ? args.dims.find(desc.shape[d].name()) : args.dims.end();
      if (dim != args.dims.end() && dim->second != npy.shape[d])
        throw DataError("input '" + name + "': " + file + " gives dimension '" + dim->first + "' size " +
                        std::to_string(npy.shape[d]) + ", --dim says " + std::to_string(dim->second));
    }
    MLTensor t = context.createTensor({desc.dataType, npy.shape, false, true});
    context.writeTensor(t, MLBufferSource(std::span<const std::byte>(npy.data)));
    tensors[name] = t;
    arrays[name] = std::move(npy);
  }
  return tensors;
}

// A candidate's .npy, checked against the output it claims to be.
io::NpyArray ReadCandidate(const std::string& output, const std::string& file,
                           const internal::UnroundedOutput& truth) {
  io::NpyArray npy = io::ReadNpy(file);
  if (npy.dataType != truth.dataType)
    throw DataError("candidate for '" + output + "': " + file + " holds " + std::string(ToString(npy.dataType)) +
                    ", the output is " + std::string(ToString(truth.dataType)));
  if (npy.shape != truth.shape)
    throw DataError("candidate for '" + output + "': " + file + " has shape " + ShapeString(npy.shape) +
                    ", the output has shape " + ShapeString(truth.shape));
  return npy;
}

// Concrete shapes of every operand of the reference graph (for the tolerances).
std::vector<std::vector<uint32_t>> OperandShapes(const internal::GraphImpl& g,
                                                 const std::map<std::string, io::NpyArray>& inputs) {
  if (g.ir->HasDynamicDimensions()) {
    std::map<std::string, std::vector<uint32_t>> shapes;
    for (const auto& [name, npy] : inputs) shapes[name] = npy.shape;
    return g.ir->InferConcreteShapes(shapes, g.nodes);
  }
  std::vector<std::vector<uint32_t>> shapes;
  for (const graph::Operand& o : g.ir->operands()) shapes.push_back(core::Sizes(o.desc.shape));
  return shapes;
}

struct ScoredLine {
  std::string output, source;
  io::OutputScore score;
  uint64_t tolerance_ulp = 0;
};

void PrintScore(const std::string& source, const io::OutputScore& s) {
  std::printf("  %s: %s\n", source.c_str(), s.pass() ? "PASS" : "FAIL");
  std::printf("    ULP histogram:");
  for (size_t b = 0; b < io::kUlpBucketCount; ++b)
    if (s.histogram[b]) std::printf(" [%s] %llu", io::UlpBucketName(b).c_str(), static_cast<unsigned long long>(s.histogram[b]));
  std::printf("\n    NaN mismatches %llu, Inf mismatches %llu\n", static_cast<unsigned long long>(s.nan_mismatches),
              static_cast<unsigned long long>(s.inf_mismatches));
  std::printf("    ULP max %llu (element %llu), median %llu, p99 %llu; max abs error %.4g, max rel error %.4g\n",
              static_cast<unsigned long long>(s.max_ulp), static_cast<unsigned long long>(s.worst_index),
              static_cast<unsigned long long>(s.median_ulp), static_cast<unsigned long long>(s.p99_ulp),
              s.max_abs_error, s.max_rel_error);
  if (!s.pass())
    std::printf("    %llu of %llu elements outside the tolerance\n", static_cast<unsigned long long>(s.failing),
                static_cast<unsigned long long>(s.elements));
}

// Our own device's outputs on the same inputs, as packed bytes per output.
std::map<std::string, std::vector<std::byte>> RunOnDevice(MLDeviceType device, const OracleArgs& args,
                                                           const std::map<std::string, io::NpyArray>& inputs) {
  MLContext context = ML::createContext({.device = device});
  io::LoadedGraph loaded = LoadWithProgress(context, args.graph_path, args.load);
  MLNamedTensors in, out;
  std::map<std::string, std::vector<uint32_t>> shapes;
  for (const auto& [name, npy] : inputs) {
    in[name] = context.createTensor({npy.dataType, npy.shape, false, true});
    context.writeTensor(in[name], MLBufferSource(std::span<const std::byte>(npy.data)));
    shapes[name] = npy.shape;
  }
  const auto output_shapes = loaded.graph.computeShapes(shapes);
  for (const auto& [name, desc] : loaded.outputs)
    out[name] = context.createTensor({desc.dataType, output_shapes.at(name), true, false});
  context.dispatch(loaded.graph, in, out);
  std::map<std::string, std::vector<std::byte>> results;
  for (const auto& [name, t] : out) results[name] = context.readTensor(t);
  return results;
}

int Score(const OracleArgs& args) {
  MLContext context = ML::createContext({.device = MLDeviceType::kReference});
  io::LoadedGraph loaded = LoadWithProgress(context, args.graph_path, args.load);
  CheckNames(args.inputs, loaded.inputs, "input", true);
  CheckNames(args.candidates, loaded.outputs, "output", false);
  std::map<std::string, io::NpyArray> input_arrays;
  const MLNamedTensors inputs = LoadInputs(context, loaded, args, input_arrays);
  // Candidates are read (and checked) before the truth is computed.
  std::map<std::string, io::NpyArray> candidates;
  const std::map<std::string, internal::UnroundedOutput> truth =
      internal::ComputeUnroundedOutputs(context, loaded.graph, inputs);
  for (const auto& [name, file] : args.candidates) candidates[name] = ReadCandidate(name, file, truth.at(name));
  std::map<std::string, std::vector<std::byte>> ours;
  if (args.device_check) ours = RunOnDevice(*args.device_check, args, input_arrays);

  std::printf("graph: %s%s; truth: reference device, float64 before each output's final rounding\n",
              args.graph_path.c_str(), loaded.name.empty() ? "" : (" (" + loaded.name + ")").c_str());
  const internal::GraphImpl& g = *loaded.graph.impl();
  const auto operand_shapes = OperandShapes(g, input_arrays);
  std::vector<ScoredLine> lines;
  for (const auto& [name, t] : truth) {
    if (!args.save_dir.empty()) {
      std::filesystem::create_directories(args.save_dir);
      io::WriteNpyFloat64((std::filesystem::path(args.save_dir) / (name + ".npy")).string(), t.shape, t.values);
    }
    const bool scored = candidates.count(name) || ours.count(name);
    if (!scored) continue;
    const io::ConeTolerance tolerance = io::WptConeTolerance(*g.ir, g.outputs.at(name), operand_shapes);
    std::printf("output %s %s %s: %llu elements, %llu of them before rounding\n", name.c_str(),
                std::string(ToString(t.dataType)).c_str(), ShapeString(t.shape).c_str(),
                static_cast<unsigned long long>(t.values.size()), static_cast<unsigned long long>(t.unrounded_elements));
    std::printf("  tolerance: %llu ULP", static_cast<unsigned long long>(tolerance.total.ulp));
    if (tolerance.total.atol > 0) std::printf(" or abs %.4g", tolerance.total.atol);
    std::printf(" (WPT's, summed over %zu ops; %zu with a budget", tolerance.ops, tolerance.terms.size());
    for (size_t i = 0; i < tolerance.terms.size() && i < 6; ++i) std::printf("%s%s", i ? ", " : ": ", tolerance.terms[i].c_str());
    std::printf("%s)\n", tolerance.terms.size() > 6 ? ", ..." : "");
    // Captures by name, not the structured bindings: clang before 16 cannot
    // capture those (the fuzz and sanitizer builds use Debian's clang 14).
    auto score = [&, &name = name, &t = t](const std::string& source, std::span<const std::byte> bytes) {
      io::OutputScore s = io::ScoreOutput(bytes, t.values, t.rounded, t.dataType, tolerance.total);
      PrintScore(source, s);
      lines.push_back({name, source, s, tolerance.total.ulp});
    };
    if (auto c = candidates.find(name); c != candidates.end()) score(args.candidates.at(name), c->second.data);
    if (auto o = ours.find(name); o != ours.end())
      score("device " + std::string(ToString(*args.device_check)), o->second);
  }
  if (!args.save_dir.empty()) std::printf("truth written to %s/<output>.npy (float64)\n", args.save_dir.c_str());
  bool all_pass = true;
  if (!lines.empty()) {
    std::printf("\n%-16s %-28s %11s %11s %8s %8s %10s %10s  %s\n", "output", "candidate", "max abs", "max rel",
                "med ULP", "p99 ULP", "max ULP", "tolerance", "verdict");
    for (const ScoredLine& l : lines) {
      std::printf("%-16s %-28s %11.4g %11.4g %8llu %8llu %10llu %10llu  %s\n", l.output.c_str(), l.source.c_str(),
                  l.score.max_abs_error, l.score.max_rel_error, static_cast<unsigned long long>(l.score.median_ulp),
                  static_cast<unsigned long long>(l.score.p99_ulp), static_cast<unsigned long long>(l.score.max_ulp),
                  static_cast<unsigned long long>(l.tolerance_ulp), l.score.pass() ? "PASS" : "FAIL");
      all_pass = all_pass && l.score.pass();
    }
  }
  return all_pass ? 0 : 1;
}

}  // namespace

int Oracle(const Args& args) {
  // A verdict is 0 or 1; anything that stops the scoring is 2.
  try {
    const OracleArgs parsed = ParseArgs(args);
    if (parsed.help) {
      Usage();
      return 0;
    }
    return Score(parsed);
  } catch (const MLException& e) {
    std::fprintf(stderr, "webnn oracle: %s: %s\n", e.name(), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "webnn oracle: %s\n", e.what());
  }
  return 2;
}

}  // namespace webnn::cli
