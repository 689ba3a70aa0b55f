// DAOP: estimateQoS, meetsRequirement and QoS monitors over the context's
// cost model (qos::ContextModel).
#include "api/qos.h"

#include "api/impl.h"
#include "core/shape.h"
#include "core/strings.h"
#include "scheduler/cpu_threads.h"

namespace webnn {

using core::StrCat;

namespace internal {

namespace {

GraphImpl& CheckedGraph(const std::shared_ptr<ContextImpl>& context, const MLGraph& graph, const char* method) {
  if (!context) throw TypeError(StrCat(method, ": null context"));
  if (!graph.impl()) throw TypeError(StrCat(method, ": null graph"));
  GraphImpl& g = *graph.impl();
  if (g.context != context) throw TypeError(StrCat(method, ": the graph belongs to another context"));
  return g;
}

// Every program value's shape for the inputs the options describe.
std::vector<std::vector<uint32_t>> ProgramShapes(const GraphImpl& g, const MLQoSOptions& options, const char* method) {
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  for (const auto& [name, desc] : options.inputDescriptors) {
    auto it = g.inputs.find(name);
    if (it == g.inputs.end())
      throw TypeError(StrCat(method, ": inputDescriptors names '", name, "', which is not an input of the graph"));
    const core::OperandDesc& declared = g.ir->operand(it->second).desc;
    if (desc.dataType != declared.type)
      throw TypeError(StrCat(method, ": input '", name, "' is ", ToString(declared.type), ", its descriptor says ",
                             ToString(desc.dataType)));
    std::vector<uint32_t> shape;
    for (const MLDimension& d : desc.shape) {
      if (d.isDynamic() || d.size() < 1 || d.size() > INT32_MAX)
        throw TypeError(StrCat(method, ": input '", name, "' needs a concrete shape of sizes in [1, 2^31 - 1], got ",
                               d.ToString()));
      shape.push_back(static_cast<uint32_t>(d.size()));
    }
    input_shapes[name] = std::move(shape);
  }
  std::vector<std::vector<uint32_t>> operand_shapes;
  if (g.ir->HasDynamicDimensions()) {
    for (const auto& [name, id] : g.inputs)
      if (!input_shapes.count(name))
        throw TypeError(
            StrCat(method, ": input '", name, "' has dynamic dimensions; give its shape in inputDescriptors"));
    operand_shapes = g.ir->InferConcreteShapes(input_shapes, g.nodes);
  } else {
    for (const auto& [name, shape] : input_shapes)
      if (shape != core::Sizes(g.ir->operand(g.inputs.at(name)).desc.shape))
        throw TypeError(StrCat(method, ": input '", name, "' has the static shape ",
                               core::ListToString(core::Sizes(g.ir->operand(g.inputs.at(name)).desc.shape)),
                               ", its descriptor says ", core::ListToString(shape)));
  }
  const ops::Program& program = g.executable->program();
  std::vector<std::vector<uint32_t>> shapes(program.values.size());
  for (size_t op = 0; op < g.value_of_operand.size(); ++op)
    if (g.value_of_operand[op] >= 0)
      shapes[g.value_of_operand[op]] =
          operand_shapes.empty() ? core::Sizes(g.ir->operand(static_cast<graph::OperandId>(op)).desc.shape)
                                 : operand_shapes[op];
  return shapes;
}

// The graph's program and every value's shape, checked under the lock that
// destroy() takes; the estimate itself runs outside it.
struct Prepared {
  std::shared_ptr<scheduler::Executable> executable;
  std::vector<std::vector<uint32_t>> shapes;
};
Prepared Prepare(const std::shared_ptr<ContextImpl>& context, const MLGraph& graph, const MLQoSOptions& options,
                 const char* method) {
  GraphImpl& g = CheckedGraph(context, graph, method);
  std::lock_guard<std::mutex> lock(context->timeline());
  if (g.destroyed || !g.executable) throw InvalidStateError(StrCat(method, ": the graph is destroyed"));
  return {g.executable, ProgramShapes(g, options, method)};
}

double EstimateMs(const std::shared_ptr<ContextImpl>& context, const MLGraph& graph, const MLQoSOptions& options,
                  const char* method) {
  const Prepared p = Prepare(context, graph, options, method);
  return context->qos_model().EstimateProgram(p.executable->program(), p.shapes).ms;
}

// Set while this thread runs a monitor's callback: a dispatch from inside
// the callback does not call monitors again.
thread_local bool t_in_monitor_callback = false;

}  // namespace

MLPerformanceTier TierOf(double ms) {
  if (ms < 16) return MLPerformanceTier::kExcellent;
  if (ms < 100) return MLPerformanceTier::kGood;
  if (ms < 1000) return MLPerformanceTier::kFair;
  if (ms < 10000) return MLPerformanceTier::kModerate;
  if (ms < 30000) return MLPerformanceTier::kSlow;
  if (ms < 60000) return MLPerformanceTier::kVerySlow;
  return MLPerformanceTier::kPoor;
}

QoSDetails EstimateQoSDetails(const MLContext& context, const MLGraph& graph, const MLQoSOptions& options) {
  const std::shared_ptr<ContextImpl>& c = context.impl();
  const Prepared p = Prepare(c, graph, options, "estimateQoS");
  const std::shared_ptr<scheduler::Executable>& executable = p.executable;
  const std::vector<std::vector<uint32_t>>& shapes = p.shapes;
  const ops::Program& program = executable->program();
  const qos::Estimate e = c->qos_model().EstimateProgram(program, shapes);
  QoSDetails d;
  d.ms = e.ms;
  d.tier = TierOf(e.ms);
  d.dispatch_ms = e.ms;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    d.steps.push_back({std::string(ops::OpName(program.steps[s].op)), program.steps[s].label, e.steps[s].cls,
                       e.steps[s].ms});
    d.dispatch_ms -= e.steps[s].ms;
  }
  d.polyfill_ms = c->qos_model().PolyfillEstimateMs(program, shapes);
  d.profile_status = c->qos_model().Status();
  return d;
}

// A monitor: the graph's estimate without load, taken when it was created,
// scaled by the load when asked (the dispatches in flight share the cores).
class QoSMonitorImpl {
 public:
  QoSMonitorImpl(double base_ms, MLPerformanceTier tier) : base_ms_(base_ms), tier_(tier) {}

  bool Meets(size_t others) const {
    return static_cast<int>(TierOf(base_ms_ * (1.0 + static_cast<double>(others)))) <= static_cast<int>(tier_);
  }
  // Re-evaluates with `others` jobs competing; calls back on a change.
  void LoadChanged(size_t others) {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || stopped_) return;  // another thread is calling back now; it sees the load too
    const bool meets = Meets(others);
    if (meets == last_) return;
    last_ = meets;
    if (!callback_) return;
    t_in_monitor_callback = true;
    try {
      callback_(meets);
    } catch (...) {
    }
    t_in_monitor_callback = false;
  }
  bool Current() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_;
  }
  void SetCallback(std::function<void(bool)> callback) {
    std::lock_guard<std::mutex> lock(mutex_);
    callback_ = std::move(callback);
  }
  void Stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    callback_ = nullptr;
  }
  void Init(size_t others) { last_ = Meets(others); }

 private:
  const double base_ms_;
  const MLPerformanceTier tier_;
  std::mutex mutex_;
  bool last_ = false;
  bool stopped_ = false;
  std::function<void(bool)> callback_;
};

void ContextImpl::AddQoSMonitor(std::weak_ptr<QoSMonitorImpl> monitor) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::erase_if(qos_monitors_, [](const std::weak_ptr<QoSMonitorImpl>& m) { return m.expired(); });
  qos_monitors_.push_back(std::move(monitor));
}

void ContextImpl::LoadChanged(size_t finishing) {
  if (t_in_monitor_callback) return;
  std::vector<std::shared_ptr<QoSMonitorImpl>> monitors;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (qos_monitors_.empty()) return;
    for (const auto& w : qos_monitors_)
      if (auto m = w.lock()) monitors.push_back(std::move(m));
  }
  const size_t in_flight = scheduler::JobsInFlight();
  const size_t others = in_flight > finishing ? in_flight - finishing : 0;
  for (const auto& m : monitors) m->LoadChanged(others);
}

}  // namespace internal

std::string_view ToString(MLPerformanceTier tier) {
  static constexpr std::string_view kNames[] = {"excellent", "good", "fair", "moderate", "slow", "very-slow", "poor"};
  return kNames[static_cast<int>(tier)];
}

MLQoSReport MLContext::estimateQoS(const MLGraph& graph, const MLQoSOptions& options) {
  return {internal::TierOf(internal::EstimateMs(impl_, graph, options, "estimateQoS"))};
}

bool MLContext::meetsRequirement(const MLGraph& graph, MLPerformanceTier requiredTier, const MLQoSOptions& options) {
  if (static_cast<int>(requiredTier) > static_cast<int>(MLPerformanceTier::kPoor))
    throw TypeError("meetsRequirement: requiredTier is not an MLPerformanceTier");
  const MLPerformanceTier tier = internal::TierOf(internal::EstimateMs(impl_, graph, options, "meetsRequirement"));
  return static_cast<int>(tier) <= static_cast<int>(requiredTier);
}

MLQoSMonitor MLContext::createQoSMonitor(const MLGraph& graph, MLPerformanceTier requiredTier,
                                         const MLQoSOptions& options) {
  if (static_cast<int>(requiredTier) > static_cast<int>(MLPerformanceTier::kPoor))
    throw TypeError("createQoSMonitor: requiredTier is not an MLPerformanceTier");
  auto monitor = std::make_shared<internal::QoSMonitorImpl>(
      internal::EstimateMs(impl_, graph, options, "createQoSMonitor"), requiredTier);
  monitor->Init(scheduler::JobsInFlight());
  impl_->AddQoSMonitor(monitor);
  return MLQoSMonitor(monitor);
}

bool MLQoSMonitor::meetsRequirement() const {
  if (!impl_) throw TypeError("meetsRequirement: null monitor");
  return impl_->Current();
}

void MLQoSMonitor::onchange(std::function<void(bool meetsRequirement)> callback) {
  if (!impl_) throw TypeError("onchange: null monitor");
  impl_->SetCallback(std::move(callback));
}

void MLQoSMonitor::stop() {
  if (impl_) impl_->Stop();
}

}  // namespace webnn
