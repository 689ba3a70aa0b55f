// FuseElementwise (declared in graph/passes.h): chains of float32 element-wise
// nodes become one fusedElementwise node (src/ops/fused_elementwise.h).
//
// A node continues the chain of the node producing one of its inputs when
//  - both are element-wise ops a fusedElementwise step can be (unary ops,
//    activations, add/sub/mul/div/max/min/pow; identity adds no step) with
//    float32 operands and output, and
//  - that input is not a graph output and no other node reads it,
// so every intermediate of a chain is read exactly once, by the next node, and
// the fused node can keep it in a cache-sized block instead of memory. Chains
// of two or more nodes are fused. Only live nodes count (the nodes reaching
// the graph outputs): activations that FuseActivations moved into a conv2d or
// gemm are dead and stay where they are.
//
// The fused node's inputs are the chain's starting value and the other operand
// of each binary step (deduplicated); it takes over the last node's output
// operand and label, and the chain's nodes are left unreachable. A device's
// limits on inputs and steps cut a longer chain into several fused nodes.
//
// Where the device reads upsampled operands, a binary step's other operand
// that a nearest-neighbour resample2d made by whole factors along the last two
// axes, with the fused output's shape, becomes the resample's input with
// those factors (FusedElementwiseAttrs::upsample): for whole factors f the
// spec's half-pixel nearest index, ceil((o + 0.5) / f - 1), is o / f, so the
// kernel reads exactly the elements the resample would have copied. The
// resample stays for any other reader.
#include <array>
#include <optional>
#include <set>

#include "graph/passes.h"
#include "ops/activation.h"
#include "ops/fused_elementwise.h"
#include "ops/resample2d.h"

namespace webnn::graph {
namespace {

using ops::FusedElementwiseStep;

bool IsFusable(const Graph& graph, const Node& node) {
  if (!ops::IsFusableElementwise(node.op) || node.outputs.size() != 1) return false;
  if (graph.operand(node.outputs[0]).desc.type != core::DataType::kFloat32) return false;
  for (OperandId in : node.inputs)
    if (in == kNoOperand || graph.operand(in).desc.type != core::DataType::kFloat32) return false;
  return true;
}

// The resample2d input and factors {rank - 2, rank - 1} that `id` is an
// upsampled copy of, when it is one FuseElementwise may read instead: float32,
// nearest-neighbour, along the last two axes, static sizes there that the
// factors divide exactly, and shaped `out_shape`.
struct Upsample {
  OperandId source = kNoOperand;
  std::array<uint32_t, 2> factors{1, 1};
};
std::optional<Upsample> UpsampleOf(const Graph& graph, OperandId id, const core::Shape& out_shape) {
  const int32_t p = graph.operand(id).producer;
  if (p < 0) return std::nullopt;
  const Node& node = graph.nodes()[p];
  if (node.op != ops::OpKind::resample2d || node.inputs.empty()) return std::nullopt;
  const auto& attrs = static_cast<const ops::Resample2dAttrs&>(*node.attrs);
  const OperandDesc& in = graph.operand(node.inputs[0]).desc;
  const OperandDesc& out = graph.operand(id).desc;
  const size_t rank = out.shape.size();
  if (attrs.mode != MLInterpolationMode::kNearestNeighbor || in.type != core::DataType::kFloat32 || rank < 2 ||
      in.shape.size() != rank || out.shape != out_shape)
    return std::nullopt;
  if (attrs.axes != std::vector<uint32_t>{uint32_t(rank - 2), uint32_t(rank - 1)}) return std::nullopt;
  Upsample u{node.inputs[0], {}};
  for (size_t a = 0; a < 2; ++a) {
    const core::Dim& i = in.shape[rank - 2 + a];
    const core::Dim& o = out.shape[rank - 2 + a];
    if (!i.IsStatic() || !o.IsStatic() || i.size == 0 || o.size % i.size != 0) return std::nullopt;
    u.factors[a] = o.size / i.size;
  }
  for (size_t a = 0; a + 2 < rank; ++a)
    if (!(in.shape[a] == out.shape[a])) return std::nullopt;
  return u;
}

// Builds the fused node's program from `chain` (node indices, in order).
class ChainBuilder {
 public:
  ChainBuilder(const Graph& graph, bool upsampled) : graph_(graph), upsampled_(upsampled) {}

  void Build(const std::vector<uint32_t>& chain) {
    out_shape_ = graph_.operand(graph_.nodes()[chain.back()].outputs[0]).desc.shape;
    OperandId running = kNoOperand;
    for (uint32_t n : chain) {
      const Node& node = graph_.nodes()[n];
      if (running == kNoOperand) Start(node);
      else Continue(node, running);
      running = node.outputs[0];
    }
    bool any = false;
    for (const auto& f : factors_) any = any || f[0] != 1 || f[1] != 1;
    if (any) attrs->upsample = factors_;
  }

  std::vector<OperandId> inputs;
  std::shared_ptr<ops::FusedElementwiseAttrs> attrs = std::make_shared<ops::FusedElementwiseAttrs>();

 private:
  int InputIndex(OperandId id, std::array<uint32_t, 2> factors = {1, 1}) {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i] == id && factors_[i] == factors) return static_cast<int>(i);
    inputs.push_back(id);
    factors_.push_back(factors);
    return static_cast<int>(inputs.size() - 1);
  }

  std::optional<Upsample> UpsampleOf(OperandId id) const {
    return upsampled_ ? graph::UpsampleOf(graph_, id, out_shape_) : std::nullopt;
  }

  // A binary step's other operand: an upsampled copy is read as its source.
  int OtherIndex(OperandId id) {
    if (const std::optional<Upsample> u = UpsampleOf(id)) return InputIndex(u->source, u->factors);
    return InputIndex(id);
  }

  // The chain's first node: its input (or, for a binary op, the operand with
  // the output's shape, so the kernel reads it directly) starts the program.
  void Start(const Node& node) {
    if (!ops::IsElementwiseBinary(node.op)) {
      InputIndex(node.inputs[0]);
      AddStep(node, FusedElementwiseStep::kRunningValue, false);
      return;
    }
    const OperandId a = node.inputs[0], b = node.inputs[1];
    const auto& out_shape = graph_.operand(node.outputs[0]).desc.shape;
    // b starts instead when a lacks the output's shape, or when a is an
    // upsampled copy and b is not: the start is read as it is, so an
    // upsampled copy there would be read from memory, not from its source.
    const bool b_full = graph_.operand(b).desc.shape == out_shape;
    const bool start_with_b =
        b_full && (graph_.operand(a).desc.shape != out_shape || (UpsampleOf(a) && !UpsampleOf(b)));
    InputIndex(start_with_b ? b : a);
    if (a == b) AddStep(node, FusedElementwiseStep::kRunningValue, false);
    else AddStep(node, OtherIndex(start_with_b ? a : b), start_with_b);
  }

  // A later node, reading the running value `x`.
  void Continue(const Node& node, OperandId x) {
    if (!ops::IsElementwiseBinary(node.op)) return AddStep(node, FusedElementwiseStep::kRunningValue, false);
    const OperandId a = node.inputs[0], b = node.inputs[1];
    if (a == x && b == x) AddStep(node, FusedElementwiseStep::kRunningValue, false);
    else if (a == x) AddStep(node, OtherIndex(b), false);
    else AddStep(node, OtherIndex(a), true);
  }

  void AddStep(const Node& node, int operand, bool running_is_b) {
    if (node.op == ops::OpKind::identity) return;
    FusedElementwiseStep step;
    step.op = node.op;
    step.operand = operand;
    step.running_is_b = running_is_b;
    if (ops::IsActivation(node.op)) step.activation = static_cast<const ops::ActivationAttrs&>(*node.attrs);
    attrs->steps.push_back(std::move(step));
  }

  const Graph& graph_;
  const bool upsampled_;
  core::Shape out_shape_;
  std::vector<std::array<uint32_t, 2>> factors_;  // per input
};

}  // namespace

int FuseElementwise(Graph& graph, const std::map<std::string, OperandId>& outputs, uint32_t max_inputs,
                    uint32_t max_steps, bool upsampled) {
  std::vector<OperandId> output_ids;
  std::set<OperandId> graph_outputs;
  for (const auto& [name, id] : outputs) {
    output_ids.push_back(id);
    graph_outputs.insert(id);
  }
  const std::vector<uint32_t> live = graph.NodesReaching(output_ids);
  // Readers of each operand among the live nodes.
  std::vector<std::vector<uint32_t>> consumers(graph.operands().size());
  for (uint32_t n : live)
    for (OperandId in : graph.nodes()[n].inputs)
      if (in != kNoOperand && (consumers[in].empty() || consumers[in].back() != n)) consumers[in].push_back(n);

  const size_t node_count = graph.nodes().size();
  std::vector<bool> fusable(node_count, false), continues(node_count, false);
  std::vector<int32_t> next(node_count, -1);
  for (uint32_t n : live) fusable[n] = IsFusable(graph, graph.nodes()[n]);
  for (uint32_t n : live) {
    if (!fusable[n]) continue;
    for (OperandId in : graph.nodes()[n].inputs) {
      const int32_t p = graph.operand(in).producer;
      if (p < 0 || !fusable[p] || graph_outputs.count(in) || consumers[in].size() != 1) continue;
      next[p] = static_cast<int32_t>(n);
      continues[n] = true;
      break;
    }
  }

  // Each chain, cut into segments within the device's limits: a segment ends
  // before the node that would take it past max_inputs or max_steps.
  auto fits = [&](const std::vector<uint32_t>& segment) {
    ChainBuilder builder(graph, upsampled);
    builder.Build(segment);
    return builder.inputs.size() <= max_inputs && builder.attrs->steps.size() <= max_steps;
  };
  int fused = 0;
  auto fuse = [&](const std::vector<uint32_t>& segment) {
    if (segment.size() < 2) return;
    ChainBuilder builder(graph, upsampled);
    builder.Build(segment);
    const Node& last = graph.nodes()[segment.back()];
    const OperandId y = last.outputs[0];
    const std::string label = last.label;
    const OperandDesc desc = graph.operand(y).desc;
    const uint32_t node = static_cast<uint32_t>(graph.nodes().size());
    graph.AppendNode(ops::OpKind::fusedElementwise, label, std::move(builder.inputs), std::move(builder.attrs), {desc});
    // The fused node now produces y; the segment's nodes become unreachable.
    graph.SetNodeOutput(node, 0, y);
    ++fused;
  };
  for (uint32_t head : live) {
    if (!fusable[head] || continues[head] || next[head] < 0) continue;
    std::vector<uint32_t> segment{head};
    for (int32_t n = next[head]; n >= 0; n = next[n]) {
      segment.push_back(static_cast<uint32_t>(n));
      if (fits(segment)) continue;
      segment.pop_back();
      fuse(segment);
      segment = {static_cast<uint32_t>(n)};
    }
    fuse(segment);
  }
  return fused;
}

}  // namespace webnn::graph
