// webnn tune: measures the cpu device's candidates for each conv2d layer of
// some graphs (or of the peer table) and writes the tuning table the device
// reads when it compiles (qos/tune.h, ops/cpu/tuning.h).
#include <cstdio>
#include <filesystem>
#include <list>
#include <stdexcept>

#include "bench/peer_tools/peer_cases.h"
#include "cli_args.h"
#include "commands.h"
#include "io/webnn_graph.h"
#include "progress.h"
#include "qos/profile_file.h"
#include "qos/tune.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

void Usage() {
  std::printf(
      "usage: webnn tune [GRAPH.json|MODEL.onnx]... [--threads N] [--margin PCT] [--quick] [--output FILE]\n"
      "                  [--dry-run]\n"
      "\n"
      "Kernel tuning for the cpu device. Where the device can run a conv2d layer several ways (direct\n"
      "nchw with 1, 2, 4 or 8 output channels per block; the implicit GEMM through nhwc with each of\n"
      "its tiles: std, wide, half-width, tall), its built-in model picks one from a fixed reckoning of\n"
      "each tile's useful lanes. This measures them instead, and where one beats the model's choice by\n"
      "more than the margin (and 2 us) it goes into the tuning table. The cpu device reads the table\n"
      "when it compiles a graph: its layers take the measured choice, the others the model's.\n"
      "\n"
      "With graphs, the layers are measured where they run: every conv2d the cpu device runs in the\n"
      "graph (as compiled, after the passes); round i compiles the whole graph with each layer on its\n"
      "i-th candidate, the rounds' dispatches run interleaved, and each layer's candidates are compared\n"
      "by the profiled times of its steps. Then the graph with the new table is timed against the\n"
      "model's choices, and the ratio printed. Without graphs, the conv layers of the peer table\n"
      "(scripts/bench-peers.sh), nchw and nhwc, are measured as one-op graphs. Depthwise layers have\n"
      "one path per layout and are not measured. Layers of an existing table for this machine and\n"
      "engine version are kept unless measured again.\n"
      "\n"
      "The table goes to $WEBNN_TUNING_FILE, else tune-cpu.json in $WEBNN_QOS_DIR, $XDG_CACHE_HOME/webnn\n"
      "or ~/.cache/webnn. It is used by every context of a process on the same machine (CPU model and\n"
      "SIMD target) and engine version, whatever its threads; WEBNN_TUNING=off ignores it.\n"
      "\n"
      "  --threads N     the context's numThreads to measure at (default: all cores)\n"
      "  --margin PCT    how much faster than the model's choice a candidate must be (default 3)\n"
      "  --quick         fewer samples (seconds; for tests)\n"
      "  --output FILE   write the table here instead\n"
      "  --dry-run       measure and report, write nothing\n");
}

std::vector<qos::ConvLayer> PeerTableLayers() {
  std::vector<qos::ConvLayer> layers;
  for (const bench::peers::ConvCase& c : bench::peers::ConvCases())
    for (const bool nhwc : {false, true}) {
      qos::ConvLayer l;
      l.attrs.padding = {c.pad, c.pad, c.pad, c.pad};
      l.attrs.strides = {c.stride, c.stride};
      l.attrs.groups = c.groups;
      l.bias = true;
      l.filter = {c.oc, c.c / c.groups, c.kh, c.kw};
      if (nhwc) {
        l.attrs.inputLayout = MLInputOperandLayout::kNhwc;
        l.attrs.filterLayout = MLConv2dFilterOperandLayout::kOhwi;
        l.input = {c.n, c.h, c.w, c.c};
        l.filter = {c.oc, c.kh, c.kw, c.c / c.groups};
      } else {
        l.input = {c.n, c.c, c.h, c.w};
      }
      l.label = std::string("peer ") + c.name + (nhwc ? " nhwc" : "");
      layers.push_back(std::move(l));
    }
  return layers;
}

}  // namespace

int Tune(const Args& args) {
  qos::TuneOptions options;
  std::vector<std::string> graphs;
  std::string output;
  bool dry_run = false;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") {
      Usage();
      return 0;
    } else if (a == "--threads") {
      options.threads = ParseUint32(walk.Value(), "--threads");
    } else if (a == "--margin") {
      options.margin = ParseUint32(walk.Value(), "--margin") / 100.0;
      if (options.margin >= 1) throw std::invalid_argument("--margin: a percentage below 100");
    } else if (a == "--quick") {
      options.quick = true;
    } else if (a == "--output") {
      output = walk.Value();
    } else if (a == "--dry-run") {
      dry_run = true;
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option '" + a + "' (see webnn tune --help)");
    } else {
      graphs.push_back(a);
    }
  }

  // ONNX models are converted first, into directories removed on return.
  std::list<TemporaryDirectory> converted;  // (not movable: a list never moves them)
  std::vector<qos::GraphSource> sources;
  for (std::string path : graphs) {
    const std::string name = std::filesystem::path(path).filename().string();
    if (std::filesystem::path(path).extension() == ".onnx") {
      converted.emplace_back("webnn-tune");
      const std::filesystem::path json =
          converted.back().path() / std::filesystem::path(path).filename().replace_extension(".json");
      ConvertOnnx(path, json.string(), {});
      path = json.string();
    }
    sources.push_back({name, [path](MLContext& context) { return io::LoadGraphFile(context, path, {}).graph; }});
  }

  const std::vector<qos::ConvLayer> peer_layers = graphs.empty() ? PeerTableLayers() : std::vector<qos::ConvLayer>{};
  Progress bar("tuning", graphs.empty() ? peer_layers.size() : graphs.size(), graphs.empty() ? "layers" : "graphs");
  options.progress = [&bar](size_t done, size_t, const std::string& label) { bar.Update(done, label); };
  std::vector<qos::GraphCheck> checks;
  qos::TuneResult result =
      graphs.empty() ? qos::Tune(peer_layers, options) : qos::TuneGraphs(sources, options, &checks);
  bar.Done();

  size_t measured = 0;
  for (const qos::TunedLayer& l : result.layers) {
    if (l.ms.empty()) continue;
    ++measured;
    double best = l.ms.front().second;
    for (const auto& [name, ms] : l.ms)
      if (name == l.chosen) best = ms;
    std::string outcome = "(stands)";
    if (l.chosen != l.model) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "-> %s %.3f ms (%.0f%% less)", l.chosen.c_str(), best,
                    100 * (1 - best / l.ms.front().second));
      outcome = buf;
    }
    std::printf("%s\n  %s: model %s %.3f ms %s\n", l.label.c_str(), l.key.c_str(), l.model.c_str(),
                l.ms.front().second, outcome.c_str());
  }
  for (const qos::GraphCheck& c : checks)
    std::printf("%s: %.3f ms with the model's choices, %.3f ms tuned (%.2fx), whole dispatches interleaved\n",
                c.name.c_str(), c.model_ms, c.tuned_ms, c.tuned_ms / c.model_ms);
  std::printf("tuned %zu layers (%zu with a choice to measure) in %.1f s at %u thread(s): %zu changed from the model\n",
              result.layers.size(), measured, result.seconds, result.table.threads, result.table.choices.size());
  if (dry_run) return 0;

  const std::filesystem::path path = output.empty() ? qos::TuningPath() : std::filesystem::path(output);
  std::string why_not;
  ops::cpu::TuningTable table = result.table;
  if (std::optional<ops::cpu::TuningTable> stored = qos::LoadTuningTable(path, &why_not);
      stored && stored->machine == table.machine && stored->engine_version == table.engine_version) {
    // Keep the stored layers not measured now.
    for (const qos::TunedLayer& l : result.layers) {
      stored->choices.erase(l.key);
      stored->measured_ms.erase(l.key);
    }
    stored->choices.insert(table.choices.begin(), table.choices.end());
    stored->measured_ms.insert(table.measured_ms.begin(), table.measured_ms.end());
    stored->threads = table.threads;
    stored->tuned = table.tuned;
    table = std::move(*stored);
  }
  qos::SaveTuningTable(table, path);
  std::printf("tuning table: %s (%zu layer choices)\n", path.string().c_str(), table.choices.size());
  return 0;
}

}  // namespace webnn::cli
