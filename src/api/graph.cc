// MLGraph and MLContext::dispatch().
#include <algorithm>
#include <new>
#include <set>

#include "api/impl.h"
#include "core/strings.h"
#include "ops/step_cost.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::ContextImpl;
using internal::GraphImpl;

namespace internal {

GraphImpl::Weightless& UnboundConstant(GraphImpl& g, const std::string& label, std::string_view what) {
  auto it = g.weightless.find(label);
  if (it == g.weightless.end()) {
    std::string labels;
    for (const auto& [l, w] : g.weightless) labels += StrCat(labels.empty() ? "" : ", ", "'", l, "'");
    throw DataError(StrCat(what, ": the graph has no weightless constant labelled '", label, "' (",
                           labels.empty() ? std::string("it has none") : "it has " + labels, ")"));
  }
  if (it->second.binding == GraphImpl::Binding::kBound)
    throw InvalidStateError(StrCat(what, ": weightless constant '", label, "' already has its data (it is bound once)"));
  if (it->second.binding == GraphImpl::Binding::kWriting)
    throw InvalidStateError(StrCat(what, ": weightless constant '", label, "' is being written by an MLConstantWriter"));
  return it->second;
}

void GiveConstantData(GraphImpl& g, GraphImpl::Weightless& w, std::shared_ptr<ops::DeviceBuffer> buffer) {
  g.executable->BindConstant(w.value, std::move(buffer));
  w.binding = GraphImpl::Binding::kBound;
}

}  // namespace internal

namespace {

GraphImpl& G(const std::shared_ptr<GraphImpl>& impl) {
  if (!impl) throw TypeError("MLGraph: null graph");
  return *impl;
}

MLOperandDescriptor ToDescriptor(const graph::Graph& ir, const core::OperandDesc& d) {
  MLOperandDescriptor out{d.type, {}};
  for (const core::Dim& dim : d.shape) {
    if (dim.IsStatic()) out.shape.emplace_back(dim.size);
    else out.shape.emplace_back(MLDynamicDimension{ir.symbols().Get(dim.symbol).name, dim.size});
  }
  return out;
}

// dispatch()'s `given` tensors name exactly the graph's inputs (or outputs):
// an unknown or a missing name is a TypeError naming it and listing the
// graph's names.
void CheckTensorNames(const MLNamedTensors& given, const std::map<std::string, graph::OperandId>& graph_names,
                      std::string_view kind) {
  std::string valid;
  for (const auto& [name, id] : graph_names) valid += StrCat(valid.empty() ? "" : ", ", "'", name, "'");
  for (const auto& [name, tensor] : given)
    if (!graph_names.count(name))
      throw TypeError(StrCat("dispatch: the graph has no ", kind, " named '", name, "'; its ", kind, "s are ", valid));
  for (const auto& [name, id] : graph_names)
    if (!given.count(name))
      throw TypeError(StrCat("dispatch: no tensor for the graph's ", kind, " '", name, "'; its ", kind, "s are ", valid));
}

void BindConstant(GraphImpl& g, const std::string& label, const MLBufferSource& data, std::string_view what) {
  GraphImpl::Weightless& w = internal::UnboundConstant(g, label, what);
  const ops::ProgramValue& value = g.executable->program().values[w.value];
  const uint64_t bytes = ByteLengthFor(value.desc.type, core::ElementCount(value.desc.shape));
  internal::CheckBufferMatches(data, value.desc.type, bytes, StrCat(what, " '", label, "'"));
  ops::Device& device = g.context->device();
  auto buffer = device.Allocate(bytes, StrCat(what, ": weightless constant '", label, "'"),
                                {g.context->ledger(), memory::Category::kConstantsRaw});
  device.Upload(*buffer, 0, data.bytes());
  internal::GiveConstantData(g, w, std::move(buffer));
  g.context->logger().Logf(MLLogLevel::kDebug, what, ": weightless constant '", label, "' bound (", bytes, " bytes)");
}

}  // namespace

void MLGraph::destroy() {
  if (!impl_) return;
  std::lock_guard<std::mutex> lock(impl_->context->timeline());
  if (impl_->destroyed) return;
  impl_->destroyed = true;
  impl_->executable.reset();
}

std::map<std::string, MLOperandDescriptor> MLGraph::inputDescriptors() const {
  const GraphImpl& g = G(impl_);
  std::map<std::string, MLOperandDescriptor> out;
  for (const auto& [name, id] : g.inputs) out[name] = ToDescriptor(*g.ir, g.ir->operand(id).desc);
  return out;
}

std::map<std::string, MLOperandDescriptor> MLGraph::outputDescriptors() const {
  const GraphImpl& g = G(impl_);
  std::map<std::string, MLOperandDescriptor> out;
  for (const auto& [name, id] : g.outputs) out[name] = ToDescriptor(*g.ir, g.ir->operand(id).desc);
  return out;
}

std::map<std::string, std::vector<uint32_t>> MLGraph::computeShapes(
    const std::map<std::string, std::vector<uint32_t>>& inputShapes) const {
  const GraphImpl& g = G(impl_);
  for (const auto& [name, shape] : inputShapes)
    if (!g.inputs.count(name)) throw TypeError(StrCat("computeShapes: the graph has no input named '", name, "'"));
  for (const auto& [name, id] : g.inputs)
    if (!inputShapes.count(name)) throw TypeError(StrCat("computeShapes: no shape for input '", name, "'"));
  auto shapes = g.ir->InferConcreteShapes(inputShapes, g.nodes);
  std::map<std::string, std::vector<uint32_t>> out;
  for (const auto& [name, id] : g.outputs) out[name] = shapes[id];
  return out;
}

std::vector<std::string> MLGraph::unboundConstants() const {
  const GraphImpl& g = G(impl_);
  std::vector<std::string> out;
  for (const auto& [label, w] : g.weightless)
    if (w.binding != GraphImpl::Binding::kBound) out.push_back(label);
  return out;
}

void MLGraph::setConstantData(const std::string& label, const MLBufferSource& data) {
  GraphImpl& g = G(impl_);
  std::lock_guard<std::mutex> lock(g.context->timeline());
  if (g.destroyed) throw InvalidStateError("setConstantData: the graph is destroyed");
  BindConstant(g, label, data, "setConstantData");
}

std::string MLGraph::deviceName() const { return std::string(G(impl_).context->device().name()); }

MLGraphMemoryPlan MLGraph::memoryPlan() const {
  const GraphImpl& g = G(impl_);
  if (!g.executable) throw InvalidStateError("memoryPlan: the graph is destroyed");
  return {g.executable->arena_bytes(), g.executable->intermediate_bytes(), g.executable->intermediate_count()};
}

MLGraphPlacement MLGraph::placement() const {
  const GraphImpl& g = G(impl_);
  if (!g.executable) throw InvalidStateError("placement: the graph is destroyed");
  const scheduler::Executable& e = *g.executable;
  const scheduler::Placement& p = e.placement();
  MLGraphPlacement out;
  out.device = p.devices[0]->type();
  out.effectivePolicy = p.fell_back() ? MLPowerPreference::kFallback : g.context->options().powerPreference;
  for (size_t s = 0; s < e.program().steps.size(); ++s)
    out.nodes.push_back({std::string(ops::OpName(e.program().steps[s].op)), e.program().steps[s].label,
                         p.devices[p.step_device[s]]->type()});
  out.transfers = static_cast<uint32_t>(e.transfer_count());
  out.transferBytes = e.transfer_bytes();
  return out;
}

MLGraphProfile MLGraph::profile() const {
  const GraphImpl& g = G(impl_);
  if (!g.executable) throw InvalidStateError("profile: the graph is destroyed");
  const scheduler::Executable& e = *g.executable;
  const scheduler::Executable::Profile p = e.last_profile();
  MLGraphProfile out;
  if (p.step_ms.empty()) return out;
  for (size_t s = 0; s < e.program().steps.size(); ++s) {
    const ops::ProgramStep& step = e.program().steps[s];
    MLStepProfile sp;
    sp.op = ops::OpName(step.op);
    sp.label = step.label;
    sp.device = e.placement().devices[e.placement().step_device[s]]->type();
    for (int32_t v : step.inputs) sp.inputShapes.push_back(v < 0 ? std::vector<uint32_t>{} : p.shapes[v]);
    for (int32_t v : step.outputs) sp.outputShapes.push_back(p.shapes[v]);
    sp.ms = p.step_ms[s];
    const ops::StepCost cost = ops::CostOf(e.program(), step, p.shapes);
    sp.flops = cost.flops;
    sp.bytes = cost.bytes;
    out.steps.push_back(std::move(sp));
  }
  return out;
}

void MLContext::bindConstants(const MLGraph& graph, const std::map<std::string, MLBufferSource>& constants) {
  GraphImpl& g = G(graph.impl());
  if (g.context != impl_) throw TypeError("bindConstants: the graph belongs to another context");
  std::lock_guard<std::mutex> lock(impl_->timeline());
  if (g.destroyed) throw InvalidStateError("bindConstants: the graph is destroyed");
  for (const auto& [label, data] : constants) BindConstant(g, label, data, "bindConstants");
}

namespace internal {

void Dispatch(const std::shared_ptr<ContextImpl>& impl, const MLGraph& graph, const MLNamedTensors& inputs,
              const MLNamedTensors& outputs, const MLDispatchOptions& options,
              const std::map<std::string, double*>& unrounded) {
  GraphImpl& g = G(graph.impl());
  if (g.context != impl) throw TypeError("dispatch: the graph belongs to another context");
  // Every check of the graph's and the tensors' state is made under the lock
  // that their destroy() takes; the queued run holds the buffers and the
  // executable it uses, so destroying them while it is in flight is safe.
  std::unique_lock<std::mutex> lock(impl->timeline());
  // A lost context has destroyed its graphs too; name the cause, not the effect.
  if (impl->is_lost()) throw InvalidStateError(StrCat("dispatch: the context is lost (", impl->lost_message(), ")"));
  if (g.destroyed) throw InvalidStateError("dispatch: the graph is destroyed");
  std::set<const internal::TensorImpl*> seen;
  for (const auto* named : {&inputs, &outputs}) {
    for (const auto& [name, tensor] : *named) {
      if (!tensor.impl()) throw TypeError(StrCat("dispatch: tensor '", name, "' is null"));
      if (!seen.insert(tensor.impl().get()).second)
        throw TypeError(StrCat("dispatch: tensor '", name, "' is passed more than once"));
      if (tensor.impl()->context != impl) throw TypeError(StrCat("dispatch: tensor '", name, "' belongs to another context"));
      if (tensor.impl()->destroyed) throw TypeError(StrCat("dispatch: tensor '", name, "' is destroyed"));
      if (tensor.impl()->is_constant) throw TypeError(StrCat("dispatch: tensor '", name, "' is a constant tensor"));
    }
  }
  // Inputs: exactly the graph's inputs, each with the declared type and a shape
  // the declaration admits (named dynamic dims bound in InferConcreteShapes).
  CheckTensorNames(inputs, g.inputs, "input");
  std::map<std::string, std::vector<uint32_t>> input_shapes;
  for (const auto& [name, tensor] : inputs) {
    const core::OperandDesc& d = g.ir->operand(g.inputs.at(name)).desc;
    if (tensor.dataType() != d.type)
      throw TypeError(StrCat("dispatch: input '", name, "' must be ", ToString(d.type), ", got ",
                             ToString(tensor.dataType())));
    input_shapes[name] = tensor.shape();
  }
  CheckTensorNames(outputs, g.outputs, "output");

  for (const auto& [label, w] : g.weightless)
    if (w.binding != GraphImpl::Binding::kBound) throw InvalidStateError(StrCat("dispatch: weightless constant '", label, "' has no data yet"));

  // Concrete shapes of every operand: the static ones, or one inference pass.
  std::vector<std::vector<uint32_t>> operand_shapes;
  if (g.ir->HasDynamicDimensions()) {
    operand_shapes = g.ir->InferConcreteShapes(input_shapes, g.nodes);
  } else {
    for (const auto& [name, shape] : input_shapes)
      if (shape != core::Sizes(g.ir->operand(g.inputs.at(name)).desc.shape))
        throw TypeError(StrCat("dispatch: input '", name, "' must have shape ",
                               core::ListToString(core::Sizes(g.ir->operand(g.inputs.at(name)).desc.shape)), ", got ",
                               core::ListToString(shape)));
  }
  auto shape_of = [&](graph::OperandId id) {
    return operand_shapes.empty() ? core::Sizes(g.ir->operand(id).desc.shape) : operand_shapes[id];
  };
  for (const auto& [name, tensor] : outputs) {
    const graph::OperandId id = g.outputs.at(name);
    const core::OperandDesc& d = g.ir->operand(id).desc;
    if (tensor.dataType() != d.type || tensor.shape() != shape_of(id))
      throw TypeError(StrCat("dispatch: output '", name, "' must be ", ToString(d.type), " ",
                             core::ListToString(shape_of(id)), ", got ", ToString(tensor.dataType()), " ",
                             core::ListToString(tensor.shape())));
  }

  std::map<std::string, std::shared_ptr<ops::DeviceBuffer>> input_buffers, output_buffers;
  for (const auto& [name, tensor] : inputs) input_buffers[name] = tensor.impl()->buffer;
  for (const auto& [name, tensor] : outputs) output_buffers[name] = tensor.impl()->buffer;
  scheduler::RunBinding run = graph::BindRun(g, input_buffers, output_buffers, operand_shapes);
  const bool warm_profiling = impl->options().qosWarmProfiling;
  run.profile = options.profile || warm_profiling;
  if (!unrounded.empty()) {
    run.unrounded.assign(g.executable->program().values.size(), nullptr);
    for (const auto& [name, values] : unrounded) {
      double*& sink = run.unrounded[g.value_of_operand[g.outputs.at(name)]];
      if (!sink) sink = values;
    }
  }
  std::optional<scheduler::Job::Clock::time_point> deadline;
  // A hint: one that has passed is due now, one more than a year away a year
  // away (so that no deadline overflows the clock).
  if (options.deadline)
    deadline = scheduler::Job::Clock::now() +
               std::clamp(*options.deadline, std::chrono::microseconds(0),
                          std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::hours(24 * 365)));
  std::weak_ptr<ContextImpl> context = impl;
  auto job = std::make_shared<scheduler::Job>(
      [executable = g.executable, run, ledger = impl->ledger(), device = impl->device_ptr(),
       context, warm_profiling](core::ParallelFor& parallel) {
        // Monitors see the load drop once this run ends, however it ends.
        struct LoadDrop {
          const std::weak_ptr<ContextImpl>& context;
          ~LoadDrop() {
            if (auto c = context.lock()) c->LoadChanged(1);
          }
        } load_drop{context};
        try {
          scheduler::Run(*executable, run, parallel, ledger);
          if (warm_profiling)
            if (auto c = context.lock())
              c->qos_model().Observe(executable->program(), run.shapes, executable->last_profile().step_ms);
        } catch (const OperationError& e) {
          // A device that failed for good (VK_ERROR_DEVICE_LOST) loses the
          // context: its graphs and tensors are destroyed and later calls see
          // a lost context.
          if (device->lost())
            if (auto c = context.lock()) c->Lose(e.what());
          throw;
        }
      },
      impl->PriorityFor(options.latencyHint, g.latency_hint), impl->options().numThreads, deadline,
      // One step's expected time (see scheduler::Job): its last run.
      g.executable->program().steps.size() == 1 ? g.executable->last_run_time() : std::chrono::nanoseconds(0));
  // The timeline: after the writers of the inputs (whose errors it takes),
  // the writers and readers of the outputs, and the graph's previous run.
  std::vector<scheduler::JobPtr> data_from, after{g.last_run};
  for (const auto& [name, tensor] : inputs) {
    internal::TensorImpl& t = *tensor.impl();
    data_from.push_back(t.last_writer);
    t.PendingReaders();
    t.readers.push_back(job);
  }
  for (const auto& [name, tensor] : outputs) {
    internal::TensorImpl& t = *tensor.impl();
    for (const auto& r : t.PendingReaders()) after.push_back(r);
    after.push_back(t.last_writer);
    t.last_writer = job;
    t.readers.clear();
  }
  g.last_run = job;
  impl->Track(job);
  scheduler::Submit(job, data_from, after);
  const core::Logger& log = impl->logger();
  if (log.enabled(MLLogLevel::kDebug))
    log.Logf(MLLogLevel::kDebug, "dispatch: ", g.executable->program().steps.size(), " steps queued on the ",
             impl->PriorityFor(options.latencyHint, g.latency_hint) == scheduler::Priority::kLatency ? "latency"
                                                                                                   : "throughput",
             " queue", options.deadline ? StrCat(", deadline in ", options.deadline->count(), " us") : "",
             options.profile ? ", profiled" : "");
  // QoS monitors' callbacks may dispatch: not under the timeline's lock.
  lock.unlock();
  impl->LoadChanged();
}

}  // namespace internal

void MLContext::dispatch(const MLGraph& graph, const MLNamedTensors& inputs, const MLNamedTensors& outputs,
                         const MLDispatchOptions& options) {
  if (!impl_) throw TypeError("dispatch: null context");
  internal::Dispatch(impl_, graph, inputs, outputs, options, {});
}

}  // namespace webnn
