#include "qos/tune.h"

#include <chrono>
#include <ctime>
#include <set>
#include <stdexcept>

#include "api/impl.h"
#include "core/shape.h"
#include "qos/microbench.h"
#include "qos/probe.h"
#include "qos/profile_file.h"
#include "scheduler/cpu_threads.h"

namespace webnn::qos {

std::vector<ConvLayer> ConvLayersOf(const MLGraph& graph, const std::string& source) {
  const auto& exe = *static_cast<internal::GraphImpl&>(*graph.impl()).executable;
  const ops::Program& program = exe.program();
  std::vector<ConvLayer> layers;
  std::set<std::string> keys;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const ops::ProgramStep& step = program.steps[s];
    if (step.op != ops::OpKind::conv2d) continue;
    if (exe.placement().devices[exe.placement().step_device[s]]->type() != MLDeviceType::kCpu) continue;
    ConvLayer l;
    l.attrs = static_cast<const ops::Conv2dAttrs&>(*step.attrs);
    l.attrs.activation.reset();
    l.input = core::Sizes(program.values[step.inputs[0]].desc.shape);
    l.filter = core::Sizes(program.values[step.inputs[1]].desc.shape);
    l.bias = step.inputs.size() > 2 && step.inputs[2] >= 0;
    l.label = source + " step " + std::to_string(s);
    if (keys.insert(ops::cpu::Conv2dTuningKey(l.attrs, l.input, l.filter)).second) layers.push_back(std::move(l));
  }
  return layers;
}

namespace {

// The layer with the process's tuning table forcing `candidate`.
MLOperand BuildConv(ProbeGraph& g, const ConvLayer& l) {
  MLConv2dOptions o;
  o.padding = l.attrs.padding;
  o.strides = l.attrs.strides;
  o.dilations = l.attrs.dilations;
  o.groups = l.attrs.groups;
  o.inputLayout = l.attrs.inputLayout;
  o.filterLayout = l.attrs.filterLayout;
  const ops::Conv2dGeometry geometry = ops::ComputeConv2dGeometry(l.attrs, l.input, l.filter);
  if (l.bias) o.bias = g.Const({geometry.out_channels});
  return g.b().conv2d(g.Input(l.input), g.Const(l.filter), o);
}

std::string Now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return buf;
}

}  // namespace

TuneResult Tune(const std::vector<ConvLayer>& layers, const TuneOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MLContextOptions co;
  co.device = MLDeviceType::kCpu;
  co.numThreads = options.threads;
  MLContext context = ML::createContext(co);
  const std::shared_ptr<const ops::cpu::TuningTable> installed = ops::cpu::CurrentTuningTable();
  struct Restore {
    std::shared_ptr<const ops::cpu::TuningTable> table;
    ~Restore() { ops::cpu::SetTuningTable(table); }
  } restore{installed};

  TuneResult result;
  result.table.machine = MachineKey(context.impl()->device().description());
  result.table.engine_version = ML::version();
  result.table.threads =
      options.threads ? options.threads : static_cast<unsigned>(scheduler::CpuThreadCount());
  result.table.tuned = Now();

  TimingOptions timing;
  timing.threads = 0;  // small layers leave threads idle: no CPU-time check
  // At least 0.15 s and 7 samples per candidate: two runs of the peer
  // table then agreed on every choice (0.05 s and 5 flipped some).
  timing.min_samples = options.quick ? 2 : 7;
  timing.max_samples = options.quick ? 3 : 41;
  timing.min_seconds = options.quick ? 0.002 : 0.15;
  timing.max_seconds = options.quick ? 0.05 : 0.6;

  for (size_t i = 0; i < layers.size(); ++i) {
    const ConvLayer& l = layers[i];
    if (options.progress) options.progress(i, layers.size(), l.label);
    TunedLayer t;
    t.key = ops::cpu::Conv2dTuningKey(l.attrs, l.input, l.filter);
    t.label = l.label;
    const std::vector<std::string> candidates = ops::cpu::Conv2dTuningCandidates(l.attrs, l.input, l.filter);
    t.model = t.chosen = candidates.front();
    if (candidates.size() > 1) {
      std::vector<std::unique_ptr<ProbeGraph>> graphs;
      std::vector<std::unique_ptr<ProbeRun>> runs;
      for (const std::string& candidate : candidates) {
        auto forced = std::make_shared<ops::cpu::TuningTable>();
        forced->choices[t.key] = candidate;
        ops::cpu::SetTuningTable(forced);
        graphs.push_back(std::make_unique<ProbeGraph>(context));
        const MLOperand out = BuildConv(*graphs.back(), l);
        // The one conv2d step, checked to be the layer and to run the candidate.
        runs.push_back(std::make_unique<ProbeRun>(
            context, *graphs.back(), out,
            [&](const ops::Program& program, const ops::ProgramStep& step,
                const std::vector<std::vector<uint32_t>>&) -> std::optional<double> {
              if (step.op != ops::OpKind::conv2d) return std::nullopt;
              const auto& attrs = static_cast<const ops::Conv2dAttrs&>(*step.attrs);
              const auto in = core::Sizes(program.values[step.inputs[0]].desc.shape);
              const auto filter = core::Sizes(program.values[step.inputs[1]].desc.shape);
              if (ops::cpu::Conv2dTuningKey(attrs, in, filter) != t.key ||
                  ops::cpu::Conv2dTuningChoice(attrs, in, filter) != candidate)
                throw std::logic_error("tune: the one-op graph of '" + t.key + "' did not compile to " + candidate);
              return 1.0;
            },
            runs.empty() ? nullptr : runs.front().get()));
      }
      ops::cpu::SetTuningTable(installed);
      std::vector<Sample> samples;
      for (auto& run : runs) samples.push_back([r = run.get()] { return r->Run(); });
      const std::vector<Timing> timings = MeasureInterleaved(samples, timing);
      size_t best = 0;
      for (size_t c = 0; c < candidates.size(); ++c) {
        t.ms.push_back({candidates[c], timings[c].median_ms});
        if (timings[c].median_ms < timings[best].median_ms) best = c;
      }
      const double gain_ms = timings[0].median_ms - timings[best].median_ms;
      if (best != 0 && gain_ms > options.margin * timings[0].median_ms && gain_ms > options.min_gain_ms) {
        t.chosen = candidates[best];
        result.table.choices[t.key] = t.chosen;
      }
      for (const auto& [name, ms] : t.ms) result.table.measured_ms[t.key][name] = ms;
    }
    result.layers.push_back(std::move(t));
  }
  if (options.progress) options.progress(layers.size(), layers.size(), "");
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace webnn::qos
