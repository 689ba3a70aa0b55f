// webnn calibrate: measures the cost model of a device (src/qos/calibrate.h)
// and stores it. webnn estimate: DAOP's estimate of a graph, with the
// numbers behind the tier, and optionally the measured time beside it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include "api/qos.h"
#include "cli_args.h"
#include "commands.h"
#include "core/shape.h"
#include "io/webnn_graph.h"
#include "progress.h"
#include "qos/calibrate.h"
#include "qos/profile_file.h"
#include "webnn/webnn.h"

namespace webnn::cli {
namespace {

using Clock = std::chrono::steady_clock;

void CalibrateUsage() {
  std::printf(
      "usage: webnn calibrate [--device D] [--threads N] [--quick] [--only CLASS,...] [--output FILE]\n"
      "\n"
      "Measures the cost model behind estimateQoS() on this machine: one-op graphs at the points of\n"
      "every op class's grid (matmul M x K x N, conv2d channels x taps x pixels, ..., every other op by\n"
      "its bytes), timed from their profiled step times; about 2100 points, 35-50 s on a 2-core Xeon. The\n"
      "profile goes to $WEBNN_QOS_DIR, else $XDG_CACHE_HOME/webnn, else ~/.cache/webnn, as\n"
      "qos-<device>-<threads>t.json, and is used by contexts on the same device, machine, engine\n"
      "version and thread count.\n"
      "\n"
      "  --device D         reference, cpu (default), gpu\n"
      "  --threads N        the contexts' numThreads to calibrate for (default: all cores)\n"
      "  --quick            each axis's end points only (seconds; a coarse profile)\n"
      "  --only PREFIXES    only classes starting with one of these (e.g. matmul,conv2d); the other\n"
      "                     classes of a stored profile of this machine are kept\n"
      "  --output FILE      write the profile here instead\n");
}

void EstimateUsage() {
  std::printf(
      "usage: webnn estimate [options] GRAPH.json\n"
      "\n"
      "DAOP's QoS estimate of one dispatch of the graph (the graph is built weightless: no weights\n"
      "are read unless --measure runs it): the tier estimateQoS() returns and the numbers behind it.\n"
      "\n"
      "  --device D         reference, cpu (default), gpu, auto\n"
      "  --threads N        the context's numThreads (default: all cores)\n"
      "  --dim NAME=SIZE    size of a named dynamic dimension (default: its maxSize)\n"
      "  --steps K          list the K most expensive steps (default 8; 0: none)\n"
      "  --measure N        also run it N times (random inputs) and print the measured median\n"
      "  --json             one JSON line: tier, estimatedMs, polyfillMs, measuredMs, steps, ...\n");
}

}  // namespace

int Calibrate(const Args& args) {
  qos::CalibrationOptions options;
  std::string output;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") {
      CalibrateUsage();
      return 0;
    } else if (a == "--device") {
      options.device = ParseDevice(walk.Value());
    } else if (a == "--threads") {
      options.threads = ParseUint32(walk.Value(), "--threads");
    } else if (a == "--quick") {
      options.quick = true;
    } else if (a == "--only") {
      std::string list = walk.Value();
      for (size_t start = 0; start <= list.size();) {
        const size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) options.only.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (a == "--output") {
      output = walk.Value();
    } else {
      throw std::invalid_argument("unknown option '" + a + "' (see webnn calibrate --help)");
    }
  }
  Progress bar("calibrating", 0, "points");
  options.progress = [&bar](size_t done, size_t total, const std::string& cls) {
    bar.SetTotal(total);
    bar.Update(done, cls);
  };
  qos::Profile profile = qos::Calibrate(options);
  bar.Done();
  const std::filesystem::path path = output.empty()
                                         ? qos::ProfilePath(qos::ProfileDirectory(), profile.device, profile.threads)
                                         : std::filesystem::path(output);
  // --only re-measures some classes of the stored profile: the others stay.
  std::string why_not;
  std::optional<qos::Profile> stored;
  if (!options.only.empty()) stored = qos::LoadProfile(path, &why_not);
  if (stored && stored->machine == profile.machine && stored->engine_version == profile.engine_version &&
      stored->threads == profile.threads) {
    for (const auto& [cls, grid] : profile.grids)
      for (const std::string& prefix : options.only)
        if (cls.rfind(prefix, 0) == 0) stored->grids[cls] = grid;
    stored->dispatch_ms = profile.dispatch_ms;
    stored->dram_gbps = profile.dram_gbps;
    stored->llc_bytes = profile.llc_bytes;
    profile = std::move(*stored);
  }
  qos::SaveProfile(profile, path);
  size_t points = 0;
  for (const auto& [cls, grid] : profile.grids) points += grid.points();
  std::printf("calibrated %s (%s), %u thread(s): %zu classes, %zu grid points, dispatch %.3f ms, in %.1f s\n",
              profile.device.c_str(), profile.machine.c_str(), profile.threads, profile.grids.size(), points,
              profile.dispatch_ms, profile.calibration_seconds);
  std::printf("profile: %s\n", path.string().c_str());
  return 0;
}

int Estimate(const Args& args) {
  MLContextOptions co;
  co.device = MLDeviceType::kCpu;
  std::map<std::string, uint32_t> dims;
  std::string graph_path;
  int measure = 0;
  size_t top = 8;
  bool json = false;
  for (ArgWalker walk(args); walk.Next();) {
    const std::string& a = walk.arg();
    if (a == "--help" || a == "-h") {
      EstimateUsage();
      return 0;
    } else if (a == "--device") {
      co.device = ParseDevice(walk.Value());
    } else if (a == "--threads") {
      co.numThreads = ParseUint32(walk.Value(), "--threads");
    } else if (a == "--dim") {
      auto [k, v] = SplitAssign(walk.Value(), "--dim");
      dims[k] = ParseUint32(v, "--dim " + k);
    } else if (a == "--steps") {
      top = ParseUint32(walk.Value(), "--steps");
    } else if (a == "--measure") {
      measure = static_cast<int>(ParseUint32(walk.Value(), "--measure"));
    } else if (a == "--json") {
      json = true;
    } else if (!a.empty() && a[0] == '-') {
      throw std::invalid_argument("unknown option '" + a + "' (see webnn estimate --help)");
    } else if (graph_path.empty()) {
      graph_path = a;
    } else {
      throw std::invalid_argument("one graph file only (got '" + graph_path + "' and '" + a + "')");
    }
  }
  if (graph_path.empty()) {
    EstimateUsage();
    return 2;
  }
  MLContext context = ML::createContext(co);
  io::GraphLoadOptions load;
  load.weightless = measure == 0;  // DAOP's flow: estimate before any weight is bound
  io::LoadedGraph loaded = io::LoadGraphFile(context, graph_path, load);

  MLQoSOptions qo;
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  std::map<std::string, int> dynamic;
  for (const auto& [name, desc] : loaded.inputs) {
    MLOperandDescriptor concrete{desc.dataType, {}};
    std::vector<uint32_t> shape;
    for (const MLDimension& d : desc.shape) {
      uint32_t size = static_cast<uint32_t>(d.size());
      if (d.isDynamic()) {
        dynamic[d.name()] = 0;
        if (auto it = dims.find(d.name()); it != dims.end()) size = it->second;
      }
      shape.push_back(size);
      concrete.shape.push_back(size);
    }
    qo.inputDescriptors[name] = concrete;
    input_shapes[name] = shape;
  }
  for (const auto& [name, size] : dims)
    if (!dynamic.count(name))
      throw std::invalid_argument("--dim " + name + ": no input has a dynamic dimension '" + name +
                                  "'; the graph's dynamic dimensions are " + NameList(dynamic));

  // Timed: the second call (the first loads the context's profile).
  internal::EstimateQoSDetails(context, loaded.graph, qo);
  const auto t0 = Clock::now();
  const internal::QoSDetails d = internal::EstimateQoSDetails(context, loaded.graph, qo);
  const double estimate_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

  double measured_ms = NAN;
  struct ClassError {
    size_t steps = 0;
    double estimated = 0, measured = 0;
  };
  std::map<std::string, ClassError> by_class;
  std::map<size_t, double> step_measured;  // per step, from one profiled dispatch
  if (measure > 0) {
    std::mt19937_64 rng(1);
    MLNamedTensors inputs, outputs;
    for (const auto& [name, shape] : input_shapes) {
      const MLOperandDataType type = loaded.inputs.at(name).dataType;
      MLTensor t = context.createTensor({type, shape, false, true});
      const std::vector<std::byte> data = RandomData(type, core::ElementCount(shape), rng);
      context.writeTensor(t, MLBufferSource(std::span<const std::byte>(data)));
      inputs[name] = t;
    }
    for (const auto& [name, shape] : loaded.graph.computeShapes(input_shapes))
      outputs[name] = context.createTensor({loaded.outputs.at(name).dataType, shape, true, false});
    std::vector<double> times;
    for (int k = -1; k < measure; ++k) {  // one warm-up
      const auto s = Clock::now();
      context.dispatch(loaded.graph, inputs, outputs);
      context.finish();
      if (k >= 0) times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - s).count());
    }
    std::sort(times.begin(), times.end());
    measured_ms = times[times.size() / 2];
    // One profiled dispatch: the measured time per model class beside the
    // estimate (where the model is off, and by how much).
    MLDispatchOptions po;
    po.profile = true;
    context.dispatch(loaded.graph, inputs, outputs, po);
    context.finish();
    const MLGraphProfile profile = loaded.graph.profile();
    for (size_t s = 0; s < profile.steps.size() && s < d.steps.size(); ++s) step_measured[s] = profile.steps[s].ms;
    for (size_t s = 0; s < profile.steps.size() && s < d.steps.size(); ++s) {
      ClassError& c = by_class[d.steps[s].cls.empty() ? "(default rate)" : d.steps[s].cls];
      ++c.steps;
      c.estimated += d.steps[s].ms;
      c.measured += profile.steps[s].ms;
    }
  }

  if (json) {
    std::printf("{\"graph\": \"%s\", \"device\": \"%s\", \"tier\": \"%s\", \"estimatedMs\": %.6g, "
                "\"polyfillMs\": %.6g, "
                "\"measuredMs\": %s, \"steps\": %zu, \"estimateCallMs\": %.4f, \"calibrated\": %s}\n",
                graph_path.c_str(), context.deviceName().c_str(), std::string(ToString(d.tier)).c_str(), d.ms,
                d.polyfill_ms, std::isnan(measured_ms) ? "null" : std::to_string(measured_ms).c_str(), d.steps.size(),
                estimate_ms, d.profile_status.rfind("calibrated", 0) == 0 ? "true" : "false");
    return 0;
  }
  std::printf("graph: %s on device %s\n", graph_path.c_str(), context.deviceName().c_str());
  std::printf("model: %s\n", d.profile_status.c_str());
  std::printf("tier: %s\n", std::string(ToString(d.tier)).c_str());
  std::printf("estimated: %.3f ms (%zu steps; dispatch %.3f ms; estimated in %.3f ms)\n", d.ms, d.steps.size(),
              d.dispatch_ms, estimate_ms);
  std::printf("polyfill's method: %.3f ms\n", d.polyfill_ms);
  if (!std::isnan(measured_ms))
    std::printf("measured: %.3f ms (median of %d); ln(estimated / measured) = %+.3f, polyfill %+.3f\n", measured_ms,
                measure, std::log(d.ms / measured_ms), std::log(d.polyfill_ms / measured_ms));
  if (!by_class.empty()) {
    std::printf("per model class (one profiled dispatch):\n");
    for (const auto& [cls, c] : by_class)
      std::printf("  %-26s %3zu steps  estimated %8.3f ms  measured %8.3f ms  ln %+.3f\n", cls.c_str(), c.steps,
                  c.estimated, c.measured, std::log(c.estimated / c.measured));
  }
  if (top > 0) {
    std::vector<size_t> order(d.steps.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return d.steps[a].ms > d.steps[b].ms; });
    std::printf("most expensive steps:\n");
    for (size_t i = 0; i < std::min(top, order.size()); ++i) {
      const internal::QoSStep& s = d.steps[order[i]];
      const auto m = step_measured.find(order[i]);
      std::printf("  %8.3f ms %5.1f%%  %-18s %-26s %s%s\n", s.ms, 100 * s.ms / d.ms, s.op.c_str(),
                  s.cls.empty() ? "(default rate)" : s.cls.c_str(), s.label.c_str(),
                  m == step_measured.end() ? "" : ("  (measured " + std::to_string(m->second) + " ms)").c_str());
    }
  }
  return 0;
}

}  // namespace webnn::cli
