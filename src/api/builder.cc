// MLGraphBuilder: input(), constant(), build(), and the common path of every
// operation (BuilderImpl::AddOp). The 95 operation methods are in builder_ops.cc.
#include <chrono>
#include <set>

#include "api/constant_bytes_builder.h"
#include "api/impl.h"
#include "core/strings.h"
#include "graph/lower.h"
#include "memory/constant_bytes.h"
#include "memory/host_memory.h"
#include "ops/number_cast.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::BuilderImpl;

namespace internal {

void BuilderImpl::CheckCanBuild(std::string_view what) const {
  if (has_built) throw InvalidStateError(StrCat(what, ": build() was already called on this builder"));
  if (context->is_lost()) throw InvalidStateError(StrCat(what, ": the context is lost"));
}

graph::OperandId BuilderImpl::Validate(const MLOperand& operand, std::string_view op, std::string_view label,
                                       std::string_view argument) const {
  if (operand.builderImpl().get() != this) {
    ops::InferContext ctx(*ops::ParseOpKind(op), label, nullptr);
    ctx.Fail("argument '", argument, "' ",
             operand.isNull() ? "is not an operand" : "was created by another MLGraphBuilder");
  }
  return operand.id();
}

std::vector<MLOperand> BuilderImpl::AddOp(ops::OpKind op, const std::string& label,
                                          const std::vector<const MLOperand*>& operands,
                                          std::shared_ptr<const ops::OpAttrs> attrs) {
  CheckCanBuild(ops::OpName(op));
  const ops::OpSchema& schema = ops::GetSchema(op);
  std::vector<graph::OperandId> ids;
  ids.reserve(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    const auto& slot = schema.inputs[std::min(i, schema.inputs.size() - 1)];
    if (operands[i] == nullptr) {
      ids.push_back(graph::kNoOperand);
      continue;
    }
    ids.push_back(Validate(*operands[i], ops::OpName(op), label, slot.name));
  }
  std::vector<graph::OperandId> outs = graph.AddNode(op, label, std::move(ids), std::move(attrs), context->limits(op));
  std::vector<MLOperand> result;
  result.reserve(outs.size());
  for (graph::OperandId id : outs) result.push_back(Wrap(id));
  return result;
}

}  // namespace internal

// ---- MLOperand --------------------------------------------------------------

namespace {
const graph::Operand& OperandOf(const MLOperand& o) {
  if (o.isNull()) throw TypeError("MLOperand: null operand");
  return o.builderImpl()->graph.operand(o.id());
}
}  // namespace

MLOperandDataType MLOperand::dataType() const { return OperandOf(*this).desc.type; }
uint32_t MLOperand::rank() const { return OperandOf(*this).desc.rank(); }
std::vector<MLDimension> MLOperand::shape() const {
  const graph::Operand& o = OperandOf(*this);
  const core::SymbolTable& symbols = builder_->graph.symbols();
  std::vector<MLDimension> out;
  for (const core::Dim& d : o.desc.shape) {
    if (d.IsStatic()) out.emplace_back(d.size);
    else out.emplace_back(MLDynamicDimension{symbols.Get(d.symbol).name, d.size});
  }
  return out;
}

// ---- MLGraphBuilder ---------------------------------------------------------

MLGraphBuilder::MLGraphBuilder(const MLContext& context) {
  if (!context.impl()) throw TypeError("MLGraphBuilder: null context");
  if (context.impl()->is_lost()) throw InvalidStateError("MLGraphBuilder: the context is lost");
  impl_ = std::make_shared<BuilderImpl>(context.impl());
}

MLOperand MLGraphBuilder::input(const std::string& name, const MLOperandDescriptor& descriptor) {
  impl_->CheckCanBuild("input");
  if (name.empty()) throw TypeError("input: the name must not be empty");
  if (impl_->graph.FindInput(name)) throw TypeError(StrCat("input: an input named '", name, "' already exists"));
  internal::CheckDescriptor(descriptor.dataType, descriptor.shape, StrCat("input '", name, "'"));
  if (!impl_->context->io_types().Contains(descriptor.dataType))
    throw TypeError(StrCat("input '", name, "': data type ", ToString(descriptor.dataType), " is not supported"));
  core::OperandDesc desc{descriptor.dataType, {}};
  core::SymbolTable& symbols = impl_->graph.mutable_symbols();
  for (const MLDimension& d : descriptor.shape) {
    if (!d.isDynamic()) {
      desc.shape.push_back(core::Dim::Static(static_cast<uint32_t>(d.size())));
      continue;
    }
    auto id = symbols.Intern(d.name(), static_cast<uint32_t>(d.size()));
    if (!id)
      throw TypeError(StrCat("input '", name, "': dynamic dimension '", d.name(), "' has maxSize ", d.size(),
                             " but was declared with maxSize ", symbols.Get(*symbols.Find(d.name())).max_size));
    desc.shape.push_back(core::Dim{static_cast<uint32_t>(d.size()), *id});
  }
  return impl_->Wrap(impl_->graph.AddInput(name, desc));
}

namespace {

// constant(descriptor, buffer)'s checks; returns the static shape.
std::vector<uint32_t> CheckConstant(internal::BuilderImpl& impl, const MLOperandDescriptor& descriptor,
                                    const MLBufferSource& buffer) {
  impl.CheckCanBuild("constant");
  internal::CheckDescriptor(descriptor.dataType, descriptor.shape, "constant");
  std::vector<uint32_t> shape;
  for (const MLDimension& d : descriptor.shape) {
    if (d.isDynamic()) throw TypeError("constant: a constant cannot have dynamic dimensions");
    shape.push_back(static_cast<uint32_t>(d.size()));
  }
  if (!impl.context->io_types().Contains(descriptor.dataType))
    throw TypeError(StrCat("constant: data type ", ToString(descriptor.dataType), " is not supported"));
  const uint64_t bytes = ByteLengthFor(descriptor.dataType, core::ElementCount(shape));
  internal::CheckBufferMatches(buffer, descriptor.dataType, bytes, "constant");
  return shape;
}

}  // namespace

MLOperand MLGraphBuilder::constant(const MLOperandDescriptor& descriptor, const MLBufferSource& buffer) {
  const std::vector<uint32_t> shape = CheckConstant(*impl_, descriptor, buffer);
  auto data = std::make_shared<graph::ConstantData>();
  // A copy: the caller may change or free the buffer after this returns.
  data->host = memory::ConstantBytes::Share(memory::CountedCopy(
      buffer.bytes(), "constant", {impl_->context->ledger(), memory::Category::kConstantsRaw}));
  return impl_->Wrap(impl_->graph.AddConstant({descriptor.dataType, core::StaticShape(shape)}, std::move(data)));
}

namespace internal {

MLOperand ConstantFromBytes(MLGraphBuilder& builder, const MLOperandDescriptor& descriptor,
                            std::shared_ptr<const memory::ConstantBytes> bytes) {
  if (!bytes) throw TypeError("constant: no bytes");
  internal::BuilderImpl& impl = *builder.impl();
  const std::vector<uint32_t> shape = CheckConstant(impl, descriptor, MLBufferSource(bytes->bytes()));
  auto data = std::make_shared<graph::ConstantData>();
  data->host = std::move(bytes);  // immutable: shared, not copied
  return impl.Wrap(impl.graph.AddConstant({descriptor.dataType, core::StaticShape(shape)}, std::move(data)));
}

// The build's summary (info) and the steps on a fallback device (warning).
void LogBuild(const GraphImpl& g, const core::Logger& log, double compile_ms) {
  const bool warn = log.enabled(MLLogLevel::kWarning), info = log.enabled(MLLogLevel::kInfo);
  if (!warn && !info) return;
  const scheduler::Executable& e = *g.executable;
  const scheduler::Placement& p = e.placement();
  const auto& steps = e.program().steps;
  std::vector<size_t> per_device(p.devices.size(), 0);
  std::string fell_back;
  for (size_t s = 0; s < steps.size(); ++s) {
    ++per_device[p.step_device[s]];
    if (p.step_device[s] != 0)
      fell_back += StrCat(fell_back.empty() ? "" : ", ", ops::OpName(steps[s].op),
                          steps[s].label.empty() ? "" : StrCat(" [", steps[s].label, "]"), " on ",
                          p.devices[p.step_device[s]]->name());
  }
  if (p.fell_back())
    log.Logf(MLLogLevel::kWarning, "build: ", steps.size() - per_device[0], " of ", steps.size(), " steps run on a fallback device, as the ",
             p.devices[0]->name(), " device does not run their op or data types: ", fell_back, "; ",
             e.transfer_count(), " copies between device memories per dispatch (", e.transfer_bytes(), " bytes)");
  if (!info) return;
  std::string passes = "graph passes off";
  if (g.pass_stats) {
    const graph::PassStats& s = *g.pass_stats;
    passes = StrCat("fused: ", s.fused_biases, " biases, ", s.fused_activations, " activations, ", s.fused_affine,
                    " affine maps after activations, ", s.fused_elementwise, " element-wise chains, ", s.quantized_matmuls, " quantized matmuls (", s.swiglus, " SwiGLU pairs), ", s.attentions, " attentions, ",
                    s.normalizations, " normalizations (", s.skip_normalizations, " with a residual add), ",
                    s.rotary_embeddings, " rotary embeddings; ", s.folded_affine,
                    " affine maps folded into convolutions, ", s.hard_swish, " hardSwish recognized, ", s.nhwc_nodes,
                    " nodes in nhwc");
  }
  std::string placed;
  for (size_t d = 0; d < p.devices.size(); ++d)
    placed += StrCat(d ? ", " : "", per_device[d], " on ", p.devices[d]->name());
  log.Logf(MLLogLevel::kInfo, "build: ", g.built_nodes, " nodes built, ", steps.size(), " steps after graph passes (",
           passes, "); placed ", placed, "; arena ", e.arena_bytes(), " bytes for ", e.intermediate_count(),
           " intermediates of ", e.intermediate_bytes(), " bytes; ", g.weightless.size(),
           " weightless constants; compiled in ", compile_ms, " ms");
}

}  // namespace internal

MLOperand MLGraphBuilder::constant(MLOperandDataType dataType, const MLNumber& value) {
  impl_->CheckCanBuild("constant");
  if (dataType == MLOperandDataType::kInt4 || dataType == MLOperandDataType::kUint4)
    throw TypeError(StrCat("constant: a scalar constant cannot be ", ToString(dataType)));
  if (value.isBigInt() && IsFloatingPoint(dataType))
    throw TypeError(StrCat("constant: a BigInt value cannot make a ", ToString(dataType), " constant"));
  if (!impl_->context->io_types().Contains(dataType))
    throw TypeError(StrCat("constant: data type ", ToString(dataType), " is not supported"));
  std::byte scalar[8] = {};
  ops::WriteCastValue(ops::CastMLNumber(value, dataType), dataType, scalar);
  auto data = std::make_shared<graph::ConstantData>();
  data->host = memory::ConstantBytes::Share(memory::CountedCopy(std::span(scalar, ByteLengthFor(dataType, 1)), "constant",
                                                                {impl_->context->ledger(), memory::Category::kConstantsRaw}));
  return impl_->Wrap(impl_->graph.AddConstant({dataType, {}}, std::move(data)));
}

MLOperand MLGraphBuilder::constant(const MLTensor& tensor) {
  if (!tensor.impl()) throw TypeError("constant: null tensor");
  const internal::TensorImpl& t = *tensor.impl();
  if (t.context != impl_->context) throw TypeError("constant: the tensor belongs to another context");
  if (!t.is_constant) throw TypeError("constant: the tensor was not created by createConstantTensor()");
  impl_->CheckCanBuild("constant");
  auto data = std::make_shared<graph::ConstantData>();
  {
    // destroy() releases the buffer under the timeline lock.
    std::lock_guard<std::mutex> lock(t.context->timeline());
    if (t.destroyed) throw TypeError("constant: the tensor is destroyed");
    data->tensor_buffer = t.buffer;
  }
  return impl_->Wrap(impl_->graph.AddConstant({t.desc.dataType, core::StaticShape(t.desc.shape)}, std::move(data)));
}

MLOperand MLGraphBuilder::constant(const MLConstantDescriptor& descriptor) {
  impl_->CheckCanBuild("constant");
  if (descriptor.label.empty()) throw TypeError("constant: a weightless constant needs a label");
  std::vector<MLDimension> dims(descriptor.shape.begin(), descriptor.shape.end());
  internal::CheckDescriptor(descriptor.dataType, dims, StrCat("constant '", descriptor.label, "'"));
  for (const graph::Operand& o : impl_->graph.operands())
    if (o.constant && o.constant->weightless_label == descriptor.label)
      throw TypeError(StrCat("constant: a weightless constant labelled '", descriptor.label, "' already exists"));
  auto data = std::make_shared<graph::ConstantData>();
  data->weightless_label = descriptor.label;
  return impl_->Wrap(
      impl_->graph.AddConstant({descriptor.dataType, core::StaticShape(descriptor.shape)}, std::move(data)));
}

MLGraph MLGraphBuilder::build(const MLNamedOperands& outputs, const MLGraphOptions& graph_options) {
  impl_->CheckCanBuild("build");
  if (outputs.empty()) throw TypeError("build: no outputs given");
  std::set<graph::OperandId> seen;
  for (const auto& [name, operand] : outputs) {
    if (name.empty()) throw TypeError("build: an output name is empty");
    if (operand.builderImpl() != impl_)
      throw TypeError(StrCat("build: output '", name, "' ",
                             operand.isNull() ? "is not an operand" : "was created by another MLGraphBuilder"));
    const graph::Operand& o = impl_->graph.operand(operand.id());
    if (o.kind == graph::Operand::Kind::kInput)
      throw TypeError(StrCat("build: output '", name, "' is a graph input; use identity() to output it"));
    if (o.kind == graph::Operand::Kind::kConstant)
      throw TypeError(StrCat("build: output '", name, "' is a constant; use identity() to output it"));
  }
  // The builder is done whatever compilation says (spec: [[hasBuilt]] is set
  // before the graph is converted).
  impl_->has_built = true;
  std::map<std::string, graph::OperandId> named;
  for (const auto& [name, operand] : outputs) named[name] = operand.id();
  auto ir = std::make_shared<const graph::Graph>(impl_->graph);
  auto g = std::make_shared<internal::GraphImpl>();
  g->context = impl_->context;
  g->latency_hint = graph_options.latencyHint;
  const MLContextOptions& options = impl_->context->options();
  const auto start = std::chrono::steady_clock::now();
  graph::CompileGraph(*g, impl_->context->device_ptr(), impl_->context->ledger(),
                      {.graph_passes = options.graphPasses,
                       .nhwc_layout = options.nhwcLayout,
                       .int8_matmul_activations = options.int8MatmulActivations,
                       .strict_placement = graph_options.strictPlacement.value_or(options.strictPlacement)},
                      ir, named);
  internal::LogBuild(*g, impl_->context->logger(),
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  impl_->context->Register(g);
  return MLGraph(g);
}

}  // namespace webnn
