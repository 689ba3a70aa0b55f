#include "graph/passes.h"

#include <set>

#include "graph/layout_pass.h"
#include "ops/activation.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/gemm.h"

namespace webnn::graph {

namespace {

std::set<OperandId> OutputSet(const std::map<std::string, OperandId>& outputs) {
  std::set<OperandId> ids;
  for (const auto& [name, id] : outputs) ids.insert(id);
  return ids;
}

// The fusion targets: ops whose cpu kernels take a bias and an activation in
// their epilogue.
bool IsFusionTarget(ops::OpKind op) {
  return op == ops::OpKind::conv2d || op == ops::OpKind::convTranspose2d || op == ops::OpKind::gemm ||
         op == ops::OpKind::matmul;
}

const std::optional<ops::FusedActivation>* FusedActivationOf(const Node& n) {
  switch (n.op) {
    case ops::OpKind::conv2d: return &static_cast<const ops::Conv2dAttrs&>(*n.attrs).activation;
    case ops::OpKind::convTranspose2d: return &static_cast<const ops::ConvTranspose2dAttrs&>(*n.attrs).activation;
    case ops::OpKind::gemm: return &static_cast<const ops::GemmAttrs&>(*n.attrs).activation;
    case ops::OpKind::matmul: {
      const auto* m = dynamic_cast<const ops::MatmulAttrs*>(n.attrs.get());
      static const std::optional<ops::FusedActivation> kNone;
      return m ? &m->activation : &kNone;
    }
    default: return nullptr;
  }
}

// A copy of `attrs` (of type T) with `activation` set.
template <typename T>
std::shared_ptr<const ops::OpAttrs> WithActivation(const ops::OpAttrs& attrs, const ops::FusedActivation& activation) {
  auto copy = std::make_shared<T>(static_cast<const T&>(attrs));
  copy->activation = activation;
  return copy;
}

std::shared_ptr<const ops::OpAttrs> AttrsWithActivation(const Node& n, const ops::FusedActivation& activation) {
  switch (n.op) {
    case ops::OpKind::conv2d: return WithActivation<ops::Conv2dAttrs>(*n.attrs, activation);
    case ops::OpKind::convTranspose2d: return WithActivation<ops::ConvTranspose2dAttrs>(*n.attrs, activation);
    case ops::OpKind::gemm: return WithActivation<ops::GemmAttrs>(*n.attrs, activation);
    case ops::OpKind::matmul: {
      auto attrs = std::make_shared<ops::MatmulAttrs>();
      attrs->activation = activation;
      return attrs;
    }
    default: return nullptr;
  }
}

// The node producing `x` when `x` is a float intermediate read by exactly one
// node and not a graph output: its value then need not exist on its own.
std::optional<uint32_t> SoleProducer(const Graph& graph, OperandId x, const std::set<OperandId>& graph_outputs,
                                     const std::vector<std::vector<uint32_t>>& consumers) {
  const Operand& xo = graph.operand(x);
  if (xo.producer < 0 || !IsFloatingPoint(xo.desc.type)) return std::nullopt;
  if (graph_outputs.count(x) || consumers[x].size() != 1) return std::nullopt;
  return static_cast<uint32_t>(xo.producer);
}

// True when `shape` (right-aligned against a rank-`rank` output) has every
// dimension 1 except, possibly, the one `axis_from_end` places from the end.
bool OnlyAlongAxis(const std::vector<core::Dim>& shape, size_t rank, size_t axis_from_end) {
  if (shape.size() > rank) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const size_t from_end = shape.size() - 1 - i;
    if (from_end != axis_from_end && !(shape[i].IsStatic() && shape[i].size == 1)) return false;
  }
  return true;
}

// The bias operand conv2d / convTranspose2d can take in place of add(y, c):
// c constant in host memory, varying only along the output channel axis; it
// becomes a new 1-D constant [C] over the same bytes.
std::optional<OperandId> ChannelBias(Graph& graph, const Node& conv, OperandId c) {
  if (conv.inputs.size() < 3 || conv.inputs[2] != kNoOperand) return std::nullopt;
  const Operand& co = graph.operand(c);
  if (co.kind != Operand::Kind::kConstant || !co.constant || !co.constant->host) return std::nullopt;
  const OperandDesc& y = graph.operand(conv.outputs[0]).desc;
  const MLInputOperandLayout layout = conv.op == ops::OpKind::conv2d
                                          ? static_cast<const ops::Conv2dAttrs&>(*conv.attrs).inputLayout
                                          : static_cast<const ops::ConvTranspose2dAttrs&>(*conv.attrs).inputLayout;
  const size_t channel_from_end = layout == MLInputOperandLayout::kNchw ? 2 : 0;
  const core::Dim& channels = y.shape[y.shape.size() - 1 - channel_from_end];
  if (!channels.IsStatic() || !OnlyAlongAxis(co.desc.shape, y.shape.size(), channel_from_end)) return std::nullopt;
  uint64_t count = 1;
  for (const core::Dim& d : co.desc.shape) count *= d.size;
  if (count != channels.size) return std::nullopt;
  const OperandDesc bias_desc{co.desc.type, {core::Dim::Static(channels.size)}};
  return graph.AddHostConstant(bias_desc, *co.constant->host);
}

}  // namespace

int FuseBiases(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  // A fusion leaves the add node unreachable but listed as a reader of its
  // inputs, so counts only ever overstate readers: computed once.
  const auto consumers = graph.Consumers();
  int fused = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    const Node add = graph.nodes()[n];
    if (add.op != ops::OpKind::add) continue;
    for (int side = 0; side < 2; ++side) {
      const OperandId x = add.inputs[side], c = add.inputs[1 - side];
      const std::optional<uint32_t> p = SoleProducer(graph, x, graph_outputs, consumers);
      if (!p) continue;
      const Node producer = graph.nodes()[*p];
      if (!IsFusionTarget(producer.op) || FusedActivationOf(producer)->has_value()) continue;
      const OperandDesc& y = graph.operand(x).desc;
      const OperandDesc& cd = graph.operand(c).desc;
      if (cd.type != y.type || graph.operand(add.outputs[0]).desc.shape != y.shape) continue;
      std::optional<OperandId> bias;
      switch (producer.op) {
        case ops::OpKind::conv2d:
        case ops::OpKind::convTranspose2d: bias = ChannelBias(graph, producer, c); break;
        case ops::OpKind::gemm:
          // gemm computes alpha * A'B' + beta * C: an added tensor is C when
          // there is none yet and beta is 1.
          if (producer.inputs[2] == kNoOperand && static_cast<const ops::GemmAttrs&>(*producer.attrs).beta == 1.0)
            bias = c;
          break;
        case ops::OpKind::matmul:
          // A bias along N, read by the kernel as an optional third input.
          if (producer.inputs.size() == 2 && y.shape.back().IsStatic() &&
              OnlyAlongAxis(cd.shape, y.shape.size(), 0))
            bias = c;
          break;
        default: break;
      }
      if (!bias) continue;
      graph.SetNodeInput(*p, 2, *bias);
      graph.SetNodeOutput(*p, 0, add.outputs[0]);
      ++fused;
      break;
    }
  }
  return fused;
}

int FuseActivations(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const auto consumers = graph.Consumers();
  int fused = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    const Node& act = graph.nodes()[n];
    if (!ops::IsActivation(act.op) || act.inputs.empty()) continue;
    const std::optional<uint32_t> p = SoleProducer(graph, act.inputs[0], graph_outputs, consumers);
    if (!p) continue;
    const Node& producer = graph.nodes()[*p];
    if (!IsFusionTarget(producer.op) || FusedActivationOf(producer)->has_value()) continue;
    const ops::FusedActivation fa{act.op, static_cast<const ops::ActivationAttrs&>(*act.attrs)};
    const OperandId y = act.outputs[0];
    graph.SetNodeAttrs(*p, AttrsWithActivation(producer, fa));
    // The producer now computes y directly; the activation node is left
    // unreachable (its input operand has no producer), so lowering drops it.
    graph.SetNodeOutput(*p, 0, y);
    ++fused;
  }
  return fused;
}

PassStats RunPasses(Graph& graph, const std::map<std::string, OperandId>& outputs, const PassOptions& options) {
  PassStats stats;
  // Biases first: conv -> add -> relu becomes conv(bias, relu).
  stats.fused_biases = FuseBiases(graph, outputs);
  stats.fused_activations = FuseActivations(graph, outputs);
  // After the fusions (fused attrs carry over); opt-in, see PassOptions.
  if (options.nhwc_layout) stats.nhwc_nodes = ConvertToNhwc(graph, outputs);
  stats.fused_elementwise = FuseElementwise(graph, outputs);  // last: the other passes know no fused chains
  return stats;
}

}  // namespace webnn::graph
