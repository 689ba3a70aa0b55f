#include "graph/passes.h"

#include <cmath>
#include <cstring>
#include <set>

#include "graph/layout_pass.h"
#include "graph/pass_util.h"
#include "ops/activation.h"
#include "ops/conv2d.h"
#include "ops/conv_transpose2d.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "ops/normalization.h"

namespace webnn::graph {

namespace {

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
    case ops::OpKind::matmul: return &static_cast<const ops::MatmulAttrs&>(*n.attrs).activation;
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
    case ops::OpKind::matmul: return WithActivation<ops::MatmulAttrs>(*n.attrs, activation);
    default: return nullptr;
  }
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
  return graph.AddHostConstant(bias_desc, co.constant->host);  // the same bytes, shared
}

OperandId AddFloatConstant(Graph& graph, std::vector<uint32_t> shape, const std::vector<float>& values) {
  OperandDesc desc{core::DataType::kFloat32, {}};
  for (uint32_t d : shape) desc.shape.push_back(core::Dim::Static(d));
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return graph.AddHostConstant(desc, std::move(bytes));
}

bool IsScalarConstant(const Graph& graph, OperandId id, float value) { return ScalarConstant(graph, id) == value; }

// A float32 conv2d / convTranspose2d whose filter (and bias, if any) are host
// constants, that an affine map of its output can be folded into.
struct FoldableConv {
  uint32_t node;
  std::vector<float> filter, bias;  // bias: one per output channel (zeros if absent)
  size_t out_channels;
  size_t filter_out_stride;  // filter element i belongs to output channel (i / stride) % out_channels
  size_t channel_from_end;   // the output's channel axis, counted from the end
};

std::optional<FoldableConv> AsFoldableConv(const Graph& graph, uint32_t n) {
  const Node& conv = graph.nodes()[n];
  if (conv.outputs.empty()) return std::nullopt;  // detached
  // The filter dimension holding the output channels, and the input layout.
  size_t out_axis = 0;
  MLInputOperandLayout layout;
  if (conv.op == ops::OpKind::conv2d) {
    const auto& attrs = static_cast<const ops::Conv2dAttrs&>(*conv.attrs);
    if (attrs.activation) return std::nullopt;
    layout = attrs.inputLayout;
    const auto f = attrs.filterLayout;
    out_axis = f == MLConv2dFilterOperandLayout::kOihw || f == MLConv2dFilterOperandLayout::kOhwi ? 0 : 3;
  } else if (conv.op == ops::OpKind::convTranspose2d) {
    const auto& attrs = static_cast<const ops::ConvTranspose2dAttrs&>(*conv.attrs);
    // With groups the filter holds out_channels / groups per group.
    if (attrs.activation || attrs.groups != 1) return std::nullopt;
    layout = attrs.inputLayout;
    const auto f = attrs.filterLayout;
    out_axis = f == MLConvTranspose2dFilterOperandLayout::kIohw ? 1
               : f == MLConvTranspose2dFilterOperandLayout::kHwoi ? 2
                                                                  : 0;
  } else {
    return std::nullopt;
  }
  auto filter = HostFloats(graph, conv.inputs[1]);
  if (!filter) return std::nullopt;
  const OperandDesc& y = graph.operand(conv.outputs[0]).desc;
  const size_t channel_from_end = layout == MLInputOperandLayout::kNchw ? 2 : 0;
  const core::Dim& channels = y.shape[y.shape.size() - 1 - channel_from_end];
  if (!channels.IsStatic()) return std::nullopt;
  const auto& filter_shape = graph.operand(conv.inputs[1]).desc.shape;
  size_t stride = 1;
  for (size_t a = out_axis + 1; a < filter_shape.size(); ++a) stride *= filter_shape[a].size;
  FoldableConv f{n, std::move(*filter), std::vector<float>(channels.size, 0.0f), channels.size, stride,
                 channel_from_end};
  if (conv.inputs[2] != kNoOperand) {
    auto bias = HostFloats(graph, conv.inputs[2]);
    if (!bias) return std::nullopt;
    f.bias = std::move(*bias);
  }
  return f;
}

// One value per output channel from a constant that varies at most along
// the conv output's channel axis (a scalar repeats).
std::optional<std::vector<float>> PerChannel(const Graph& graph, OperandId c, const FoldableConv& conv) {
  auto values = HostFloats(graph, c);
  if (!values) return std::nullopt;
  const OperandDesc& y = graph.operand(graph.nodes()[conv.node].outputs[0]).desc;
  if (!OnlyAlongAxis(graph.operand(c).desc.shape, y.shape.size(), conv.channel_from_end)) return std::nullopt;
  if (values->size() == 1) return std::vector<float>(conv.out_channels, (*values)[0]);
  if (values->size() != conv.out_channels) return std::nullopt;
  return values;
}

// y * scale + shift per output channel as new filter and bias constants.
void ApplyAffine(Graph& graph, FoldableConv& conv, const std::vector<float>& scale, const std::vector<float>& shift) {
  for (size_t i = 0; i < conv.filter.size(); ++i)
    conv.filter[i] *= scale[(i / conv.filter_out_stride) % conv.out_channels];
  for (size_t o = 0; o < conv.out_channels; ++o) conv.bias[o] = conv.bias[o] * scale[o] + shift[o];
  const Node& node = graph.nodes()[conv.node];
  std::vector<uint32_t> filter_shape;
  for (const core::Dim& d : graph.operand(node.inputs[1]).desc.shape) filter_shape.push_back(d.size);
  graph.SetNodeInput(conv.node, 1, AddFloatConstant(graph, filter_shape, conv.filter));
  graph.SetNodeInput(conv.node, 2, AddFloatConstant(graph, {static_cast<uint32_t>(conv.out_channels)}, conv.bias));
}

}  // namespace

int FoldAffineIntoConvs(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  // A fold leaves the consumer unreachable but still listed as a reader, so
  // counts only ever overstate readers: computed once.
  const auto consumers = graph.Consumers();
  int folded = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    std::optional<FoldableConv> conv = AsFoldableConv(graph, n);
    if (!conv) continue;
    // Absorb consumers one after another: conv -> mul -> add -> batchNorm ...
    for (;;) {
      const OperandId y = graph.nodes()[n].outputs[0];
      if (graph_outputs.count(y) || consumers[y].size() != 1) break;
      const Node next = graph.nodes()[consumers[y][0]];
      const std::vector<float> ones(conv->out_channels, 1.0f), zeros(conv->out_channels, 0.0f);
      std::optional<std::vector<float>> scale, shift;
      if ((next.op == ops::OpKind::mul || next.op == ops::OpKind::add) && next.inputs.size() == 2) {
        const OperandId c = next.inputs[0] == y ? next.inputs[1] : next.inputs[0];
        if (c == y) break;
        auto values = PerChannel(graph, c, *conv);
        if (!values || graph.operand(next.outputs[0]).desc.shape != graph.operand(y).desc.shape) break;
        if (next.op == ops::OpKind::mul) scale = std::move(values), shift = zeros;
        else scale = ones, shift = std::move(values);
      } else if (next.op == ops::OpKind::batchNormalization && next.inputs[0] == y) {
        // (y - mean) / sqrt(variance + epsilon) * s + b along the channel axis.
        const auto& bn = static_cast<const ops::BatchNormalizationAttrs&>(*next.attrs);
        const size_t rank = graph.operand(y).desc.shape.size();
        if (bn.axis != rank - 1 - conv->channel_from_end) break;
        auto mean = HostFloats(graph, next.inputs[1]), variance = HostFloats(graph, next.inputs[2]);
        auto s = next.inputs[3] == kNoOperand ? std::optional(ones) : HostFloats(graph, next.inputs[3]);
        auto b = next.inputs[4] == kNoOperand ? std::optional(zeros) : HostFloats(graph, next.inputs[4]);
        if (!mean || !variance || !s || !b) break;
        scale = zeros, shift = zeros;
        for (size_t o = 0; o < conv->out_channels; ++o) {
          // In double, as the reference computes the normalization.
          const double k = (*s)[o] / std::sqrt(double((*variance)[o]) + bn.epsilon);
          (*scale)[o] = static_cast<float>(k);
          (*shift)[o] = static_cast<float>((*b)[o] - (*mean)[o] * k);
        }
      } else {
        break;
      }
      ApplyAffine(graph, *conv, *scale, *shift);
      graph.SetNodeOutput(n, 0, next.outputs[0]);
      ++folded;
    }
  }
  return folded;
}

int RecognizeHardSwish(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const auto consumers = graph.Consumers();
  // An intermediate only the pattern reads.
  auto private_value = [&](OperandId id, size_t readers) {
    return graph.operand(id).producer >= 0 && !graph_outputs.count(id) && consumers[id].size() == readers;
  };
  auto producer = [&](OperandId id, ops::OpKind op) -> const Node* {
    const int32_t p = graph.operand(id).producer;
    return p >= 0 && graph.nodes()[p].op == op ? &graph.nodes()[p] : nullptr;
  };
  // clamp(add(a, 3), 0, 6) (either add operand order): returns a.
  auto relu6_of_a_plus_3 = [&](OperandId id) -> std::optional<OperandId> {
    const Node* clamp = producer(id, ops::OpKind::clamp);
    if (!clamp || !private_value(id, 1) || !private_value(clamp->inputs[0], 1)) return std::nullopt;
    const auto& bounds = static_cast<const ops::ActivationAttrs&>(*clamp->attrs);
    if (!bounds.minValue || !bounds.maxValue || bounds.minValue->asDouble() != 0 || bounds.maxValue->asDouble() != 6)
      return std::nullopt;
    const Node* add = producer(clamp->inputs[0], ops::OpKind::add);
    if (!add) return std::nullopt;
    if (IsScalarConstant(graph, add->inputs[1], 3.0f)) return add->inputs[0];
    if (IsScalarConstant(graph, add->inputs[0], 3.0f)) return add->inputs[1];
    return std::nullopt;
  };
  int found = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    const Node node = graph.nodes()[n];
    if (node.inputs.size() != 2 || !IsFloatingPoint(graph.operand(node.outputs[0]).desc.type)) continue;
    std::optional<OperandId> a;
    if (node.op == ops::OpKind::div && IsScalarConstant(graph, node.inputs[1], 6.0f)) {
      // div(mul(a, relu6(a + 3)), 6)
      const Node* mul = producer(node.inputs[0], ops::OpKind::mul);
      if (mul && private_value(node.inputs[0], 1)) {
        for (int side = 0; side < 2 && !a; ++side) {
          const auto inner = relu6_of_a_plus_3(mul->inputs[1 - side]);
          if (inner && *inner == mul->inputs[side]) a = inner;
        }
      }
    } else if (node.op == ops::OpKind::mul) {
      // mul(a, div(relu6(a + 3), 6))
      for (int side = 0; side < 2 && !a; ++side) {
        const OperandId t = node.inputs[1 - side];
        const Node* div = producer(t, ops::OpKind::div);
        if (!div || !private_value(t, 1) || !IsScalarConstant(graph, div->inputs[1], 6.0f)) continue;
        const auto inner = relu6_of_a_plus_3(div->inputs[0]);
        if (inner && *inner == node.inputs[side]) a = inner;
      }
    }
    if (!a) continue;
    // A hardSwish node computing the pattern's output; the pattern's nodes
    // are left unreachable.
    const OperandId out = node.outputs[0];
    graph.AppendNode(ops::OpKind::hardSwish, node.label, {*a}, std::make_shared<ops::ActivationAttrs>(),
                     {graph.operand(out).desc});
    graph.SetNodeOutput(static_cast<uint32_t>(graph.nodes().size() - 1), 0, out);
    ++found;
  }
  return found;
}

int FuseBiases(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  // A fusion leaves the add node unreachable but listed as a reader of its
  // inputs, so counts only ever overstate readers: computed once.
  const auto consumers = graph.Consumers();
  int fused = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    const Node add = graph.nodes()[n];
    if (add.op != ops::OpKind::add || add.inputs.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      const OperandId x = add.inputs[side], c = add.inputs[1 - side];
      // add(y, y): y is no bias of itself (the fused node would read its own output).
      if (c == x) break;
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

namespace {
// Nodes a rewrite left unreachable stop reading their inputs, so that
// Graph::Consumers counts only live readers for the next pass.
void DetachUnreachable(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  std::vector<OperandId> ids;
  for (const auto& [name, id] : outputs) ids.push_back(id);
  std::vector<bool> live(graph.nodes().size(), false);
  for (uint32_t n : graph.NodesReaching(ids)) live[n] = true;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n)
    if (!live[n]) graph.DetachNode(n);
}
}  // namespace

int FuseAffineAfterActivations(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const auto consumers = graph.Consumers();
  int fused = 0;
  for (uint32_t n = 0; n < graph.nodes().size(); ++n) {
    if (!IsFusionTarget(graph.nodes()[n].op) || graph.nodes()[n].outputs.empty()) continue;
    for (;;) {
      const Node& producer = graph.nodes()[n];
      const std::optional<ops::FusedActivation>* current = FusedActivationOf(producer);
      const OperandId y = producer.outputs[0];
      if (!current->has_value() || graph_outputs.count(y) || consumers[y].size() != 1) break;
      const Node next = graph.nodes()[consumers[y][0]];
      if ((next.op != ops::OpKind::mul && next.op != ops::OpKind::add) || next.inputs.size() != 2) break;
      const OperandId c = next.inputs[0] == y ? next.inputs[1] : next.inputs[0];
      const std::optional<float> value = ScalarConstant(graph, c);
      if (c == y || !value || graph.operand(y).desc.type != core::DataType::kFloat32 ||
          graph.operand(next.outputs[0]).desc.shape != graph.operand(y).desc.shape)
        break;
      ops::FusedActivation fa = **current;
      if (next.op == ops::OpKind::mul) {
        fa.post_scale *= *value;
        fa.post_shift *= *value;
      } else {
        fa.post_shift += *value;
      }
      graph.SetNodeAttrs(n, AttrsWithActivation(producer, fa));
      graph.SetNodeOutput(n, 0, next.outputs[0]);
      ++fused;
    }
  }
  return fused;
}

PassStats RunPasses(Graph& graph, const std::map<std::string, OperandId>& outputs, const PassOptions& options) {
  PassStats stats;
  // Affine maps folded into conv weights first, then decomposed hardSwish
  // recognized, so that conv -> mul -> add -> hardSwish ends as one conv.
  stats.folded_affine = FoldAffineIntoConvs(graph, outputs);
  DetachUnreachable(graph, outputs);
  stats.hard_swish = RecognizeHardSwish(graph, outputs);
  DetachUnreachable(graph, outputs);
  // Before the epilogue fusions, which would move the mask add into the scores' matmul.
  if (options.fusions.attention) {
    stats.attentions = FuseAttention(graph, outputs);
    DetachUnreachable(graph, outputs);
  }
  // Before FuseElementwise, which would take their element-wise tails.
  if (options.fusions.normalization) {
    stats.normalizations = FuseNormalization(graph, outputs, stats);
    DetachUnreachable(graph, outputs);
  }
  if (options.fusions.rotary_embedding) {
    stats.rotary_embeddings = FuseRotaryEmbedding(graph, outputs);
    DetachUnreachable(graph, outputs);
  }
  if (options.fusions.epilogues) {
    // Biases before activations: conv -> add -> relu becomes conv(bias, relu).
    stats.fused_biases = FuseBiases(graph, outputs);
    DetachUnreachable(graph, outputs);
    stats.fused_activations = FuseActivations(graph, outputs);
    DetachUnreachable(graph, outputs);
    stats.fused_affine = FuseAffineAfterActivations(graph, outputs);
    DetachUnreachable(graph, outputs);
  }
  // After the epilogue fusions: a matmul's bias and activation carry over.
  if (options.fusions.quantized_matmul) {
    stats.quantized_matmuls = FuseQuantizedMatmul(graph, outputs, options.int8_matmul_activations);
    DetachUnreachable(graph, outputs);
    stats.swiglus = FuseSwiGlu(graph, outputs);
    DetachUnreachable(graph, outputs);
  }
  // After the fusions (fused attrs carry over); opt-in, see PassOptions.
  if (options.nhwc_layout) stats.nhwc_nodes = ConvertToNhwc(graph, outputs);
  // Last: the other passes know no fused chains.
  stats.fused_elementwise = FuseElementwise(graph, outputs, options.fusions.elementwise_max_inputs,
                                            options.fusions.elementwise_max_steps,
                                            options.fusions.elementwise_upsampled);
  return stats;
}

}  // namespace webnn::graph
