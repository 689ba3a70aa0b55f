#include "qos/tune.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <limits>
#include <map>
#include <stdexcept>

#include "api/impl.h"
#include "core/shape.h"
#include "qos/microbench.h"
#include "qos/probe.h"
#include "qos/profile_file.h"
#include "scheduler/cpu_threads.h"

namespace webnn::qos {

namespace {

// The layer as a one-op graph (the candidate: whatever the process's table forces).
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

// A cpu context for tuning, and the process's table put back when it goes.
struct TuningSession {
  explicit TuningSession(const TuneOptions& options) : context(NewContext(options)) {
    result.table.machine = MachineKey(context.impl()->device().description());
    result.table.engine_version = ML::version();
    result.table.threads = options.threads ? options.threads : static_cast<unsigned>(scheduler::CpuThreadCount());
    result.table.tuned = Now();
    // At least 0.15 s and 7 samples per candidate: two runs of the peer
    // table then agreed on every choice (0.05 s and 5 flipped some).
    timing.threads = 0;  // small layers leave threads idle: no CPU-time check
    timing.min_samples = options.quick ? 2 : 7;
    timing.max_samples = options.quick ? 3 : 41;
    timing.min_seconds = options.quick ? 0.002 : 0.15;
    timing.max_seconds = options.quick ? 0.05 : 0.6;
  }
  ~TuningSession() { ops::cpu::SetTuningTable(installed); }
  static MLContext NewContext(const TuneOptions& options) {
    MLContextOptions co;
    co.device = MLDeviceType::kCpu;
    co.numThreads = options.threads;
    return ML::createContext(co);
  }

  MLContext context;
  const std::shared_ptr<const ops::cpu::TuningTable> installed = ops::cpu::CurrentTuningTable();
  TuneResult result;
  TimingOptions timing;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// Makes the process's table force `choices` (empty: the model everywhere).
void Force(std::map<std::string, std::string> choices) {
  auto table = std::make_shared<ops::cpu::TuningTable>();
  table->choices = std::move(choices);
  ops::cpu::SetTuningTable(std::move(table));
}

// The layer's choice from its candidates' times (the model's first): the
// fastest, if it beats the model's by more than the margin and min_gain_ms.
void Decide(TunedLayer& t, const std::vector<std::string>& candidates, const std::vector<double>& ms,
            const TuneOptions& options, ops::cpu::TuningTable& table) {
  size_t best = 0;
  for (size_t c = 0; c < candidates.size(); ++c) {
    t.ms.push_back({candidates[c], ms[c]});
    table.measured_ms[t.key][candidates[c]] = ms[c];
    if (ms[c] < ms[best]) best = c;
  }
  const double gain_ms = ms[0] - ms[best];
  if (best != 0 && gain_ms > options.margin * ms[0] && gain_ms > options.min_gain_ms) {
    t.chosen = candidates[best];
    table.choices[t.key] = t.chosen;
  }
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

const scheduler::Executable& ExecutableOf(const MLGraph& g) {
  return *static_cast<internal::GraphImpl&>(*g.impl()).executable;
}

// A conv2d step's attributes and operand shapes, as the tuning queries take them.
struct ConvStep {
  const ops::Conv2dAttrs& attrs;
  std::vector<uint32_t> input, filter;
  ConvStep(const ops::Program& program, const ops::ProgramStep& step)
      : attrs(static_cast<const ops::Conv2dAttrs&>(*step.attrs)),
        input(core::Sizes(program.values[step.inputs[0]].desc.shape)),
        filter(core::Sizes(program.values[step.inputs[1]].desc.shape)) {}
  std::string Key() const { return ops::cpu::Conv2dTuningKey(attrs, input, filter); }
  std::string Choice() const { return ops::cpu::Conv2dTuningChoice(attrs, input, filter); }
  std::vector<std::string> Candidates() const { return ops::cpu::Conv2dTuningCandidates(attrs, input, filter); }
};

// The conv2d steps of a compiled graph that run on cpu, by tuning key.
std::map<std::string, std::vector<size_t>> ConvStepsByKey(const MLGraph& graph) {
  const scheduler::Executable& exe = ExecutableOf(graph);
  const ops::Program& program = exe.program();
  std::map<std::string, std::vector<size_t>> steps;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const ops::ProgramStep& step = program.steps[s];
    if (step.op != ops::OpKind::conv2d) continue;
    if (exe.placement().devices[exe.placement().step_device[s]]->type() != MLDeviceType::kCpu) continue;
    steps[ConvStep(program, step).Key()].push_back(s);
  }
  return steps;
}

// What a compile of `graph`'s step `s` (a conv2d) took: the choice it packed for.
std::string ChoiceOf(const MLGraph& graph, size_t s) {
  const ops::Program& program = ExecutableOf(graph).program();
  return ConvStep(program, program.steps[s]).Choice();
}

}  // namespace

TuneResult Tune(const std::vector<ConvLayer>& layers, const TuneOptions& options) {
  TuningSession session(options);
  TuneResult& result = session.result;
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
        Force({{t.key, candidate}});
        graphs.push_back(std::make_unique<ProbeGraph>(session.context));
        const MLOperand out = BuildConv(*graphs.back(), l);
        // The one conv2d step, checked to be the layer and to run the candidate.
        runs.push_back(std::make_unique<ProbeRun>(
            session.context, *graphs.back(), out,
            [&](const ops::Program& program, const ops::ProgramStep& step,
                const std::vector<std::vector<uint32_t>>&) -> std::optional<double> {
              if (step.op != ops::OpKind::conv2d) return std::nullopt;
              const ConvStep conv(program, step);
              if (conv.Key() != t.key || conv.Choice() != candidate)
                throw std::logic_error("tune: the one-op graph of '" + t.key + "' did not compile to " + candidate);
              return 1.0;
            },
            runs.empty() ? nullptr : runs.front().get()));
      }
      std::vector<Sample> samples;
      // A sample times a candidate's second dispatch in a row: a layer alone
      // is run in a loop by its users (the peer benchmark), its weights warm.
      // Timing the first after the other candidates' (weights evicted) chose
      // plans that the peer benchmark then measured 5-11% slower.
      for (auto& run : runs)
        samples.push_back([r = run.get()] {
          r->Run();
          return r->Run();
        });
      std::vector<double> ms;
      for (const Timing& timing : MeasureInterleaved(samples, session.timing)) ms.push_back(timing.median_ms);
      Decide(t, candidates, ms, options, result.table);
    }
    result.layers.push_back(std::move(t));
  }
  if (options.progress) options.progress(layers.size(), layers.size(), "");
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - session.start).count();
  return result;
}

TuneResult TuneGraphs(const std::vector<GraphSource>& sources, const TuneOptions& options,
                      std::vector<GraphCheck>* checks) {
  TuningSession session(options);
  TuneResult& result = session.result;
  MLContext& context = session.context;
  for (size_t gi = 0; gi < sources.size(); ++gi) {
    const GraphSource& source = sources[gi];
    if (options.progress) options.progress(gi, sources.size(), source.name);
    // Round 0: the model's choice for every layer.
    Force({});
    std::vector<MLGraph> rounds = {source.build(context)};
    const std::map<std::string, std::vector<size_t>> steps = ConvStepsByKey(rounds[0]);
    std::map<std::string, std::vector<std::string>> candidates;
    size_t round_count = 1;
    for (const auto& [key, at] : steps) {
      const ops::Program& program = ExecutableOf(rounds[0]).program();
      candidates[key] = ConvStep(program, program.steps[at.front()]).Candidates();
      round_count = std::max(round_count, candidates[key].size());
    }
    // Round i: each layer's i-th candidate (the model's where it has fewer),
    // checked to be what the compile packed.
    for (size_t i = 1; i < round_count; ++i) {
      std::map<std::string, std::string> forced;
      for (const auto& [key, names] : candidates)
        if (i < names.size()) forced[key] = names[i];
      Force(forced);
      rounds.push_back(source.build(context));
      if (ExecutableOf(rounds.back()).program().steps.size() != ExecutableOf(rounds[0]).program().steps.size())
        throw std::logic_error("tune: " + source.name + " compiled to another program in round " + std::to_string(i));
      for (const auto& [key, at] : steps)
        for (size_t s : at)
          if (ChoiceOf(rounds.back(), s) != (i < candidates[key].size() ? candidates[key][i] : candidates[key][0]))
            throw std::logic_error("tune: " + source.name + " step " + std::to_string(s) + " did not compile to its "
                                   "round's candidate");
    }
    MLNamedTensors inputs, outputs;
    MakeProbeTensors(context, rounds[0], inputs, outputs);
    // ms[round][key]: per dispatch, the summed profiled times of the key's steps.
    std::vector<std::map<std::string, std::vector<double>>> ms(round_count);
    std::vector<Sample> samples;
    for (size_t i = 0; i < round_count; ++i)
      samples.push_back([&, i] {
        MLDispatchOptions o;
        o.profile = true;
        context.dispatch(rounds[i], inputs, outputs, o);
        context.finish();
        const std::vector<double> step_ms = ExecutableOf(rounds[i]).last_profile().step_ms;
        double total = 0;
        for (const auto& [key, at] : steps) {
          double sum = 0;
          for (size_t s : at) sum += step_ms[s];
          ms[i][key].push_back(sum);
          total += sum;
        }
        return total;
      });
    if (round_count > 1) MeasureInterleaved(samples, session.timing);
    for (const auto& [key, at] : steps) {
      TunedLayer t;
      t.key = key;
      t.label = source.name + " step " + std::to_string(at.front());
      const std::vector<std::string>& names = candidates[key];
      t.model = t.chosen = names.front();
      if (names.size() > 1) {
        std::vector<double> medians;
        for (size_t c = 0; c < names.size(); ++c) {
          std::vector<double>& v = ms[c][key];
          if (!v.empty()) v.erase(v.begin());  // the warm-up dispatch
          medians.push_back(Median(v));
        }
        Decide(t, names, medians, options, result.table);
      }
      result.layers.push_back(std::move(t));
    }
    if (checks) {  // the graph with this table against the model's choices, whole dispatches
      Force(result.table.choices);
      std::vector<MLGraph> pair = {rounds[0], source.build(context)};
      std::vector<Sample> whole;
      for (MLGraph& g : pair)
        whole.push_back([&context, &g, &inputs, &outputs] {
          context.dispatch(g, inputs, outputs);
          context.finish();
          return std::numeric_limits<double>::quiet_NaN();  // wall clock
        });
      const std::vector<Timing> t = MeasureInterleaved(whole, session.timing);
      checks->push_back({source.name, t[0].median_ms, t[1].median_ms});
      pair[1].destroy();
    }
    for (MLGraph& g : rounds) g.destroy();
  }
  if (options.progress) options.progress(sources.size(), sources.size(), "");
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - session.start).count();
  return result;
}

}  // namespace webnn::qos
