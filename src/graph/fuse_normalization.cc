// FuseNormalization (declared in graph/passes.h): RMSNorm and layerNorm
// written out as WebNN ops, and a residual add before a norm, become one
// fusedNormalization node (src/ops/fused_normalization.h).
//
// The written-out forms, found from their sqrt:
//   c    = x                                      (RMSNorm)
//        | sub(x, reduceMean(x, axes, keep))      (layerNorm)
//   v    = reduceMean(pow(c, 2) | mul(c, c), axes, keep)
//   d    = sqrt(add(v, eps) | add(eps, v))        eps a scalar constant
//   y    = div(c, d) | mul(c, reciprocal(d)) | mul(reciprocal(d), c)
//   y    = mul(y, scale) | mul(scale, y)          optional
//   y    = add(y, bias) | add(bias, y)            optional
// with `axes` the trailing axes, scale and bias of the normalized window's
// shape (any operands, not only constants), and every intermediate read only
// inside the pattern and not a graph output. x itself may have other readers.
//
// SkipLayerNorm: when x = add(a, b) with a and b of x's shape, the add moves
// into the node (inputs a and b); the node also writes x when anything else
// reads it (the residual stream of a transformer does). A builtin
// layerNormalization over the trailing axes whose input is such an add
// becomes a fusedNormalization too; without one it stays as built.
//
// The rewrite computes the same function: moments in float64, the
// normalization in float32 (see src/ops/cpu/fused_normalization.cc).
#include <algorithm>

#include "graph/pass_util.h"
#include "graph/passes.h"
#include "ops/fused_normalization.h"
#include "ops/normalization.h"
#include "ops/reduce.h"

namespace webnn::graph {
namespace {

// The number of trailing axes a reduceMean with kept dimensions reduces, or 0.
uint32_t TrailingMeanAxes(const Graph& graph, const Node& mean) {
  const auto& attrs = ops::AttrsAs<ops::ReduceAttrs>(*mean.attrs);
  const uint32_t rank = static_cast<uint32_t>(graph.operand(mean.inputs[0]).desc.shape.size());
  if (!attrs.keepDimensions) return 0;
  return ops::TrailingAxesCount(ops::ResolveReduceAxes(attrs, rank), rank);
}

class Matcher {
 public:
  Matcher(Graph& graph, const std::map<std::string, OperandId>& outputs)
      : graph_(graph), graph_outputs_(OutputSet(outputs)), consumers_(graph.Consumers()) {}

  // An intermediate only the pattern reads: its producer, if it is `op`.
  const Node* Sole(OperandId x, ops::OpKind op) const {
    const std::optional<uint32_t> p = SoleProducer(graph_, x, graph_outputs_, consumers_);
    return p && graph_.nodes()[*p].op == op ? &graph_.nodes()[*p] : nullptr;
  }
  // The one node reading `x` (not a graph output), if it is `op`.
  const Node* SoleReader(OperandId x, ops::OpKind op) const {
    if (graph_outputs_.count(x) || consumers_[x].size() != 1) return nullptr;
    const Node& n = graph_.nodes()[consumers_[x][0]];
    return n.op == op ? &n : nullptr;
  }
  // True when every reader of `x` is one of `nodes` and x is no graph output.
  bool ReadOnlyBy(OperandId x, std::initializer_list<const Node*> nodes) const {
    if (graph_outputs_.count(x)) return false;
    return std::all_of(consumers_[x].begin(), consumers_[x].end(), [&](uint32_t c) {
      return std::any_of(nodes.begin(), nodes.end(), [&](const Node* n) { return n == &graph_.nodes()[c]; });
    });
  }

  // Of a binary node reading `x`, its other operand.
  static OperandId Other(const Node& n, OperandId x) { return n.inputs[0] == x ? n.inputs[1] : n.inputs[0]; }

  // The written-out norm whose sqrt is node `s`, as a new node; false if none.
  bool WrittenOut(uint32_t s, PassStats& stats);
  // A residual add feeding builtin layerNormalization `n`, as a new node.
  bool SkipIntoBuiltin(uint32_t n, PassStats& stats);

 private:
  // x = add(a, b) with a and b of x's shape: that add, else null.
  const Node* ResidualAdd(OperandId x) const {
    const Node* add = ProducerOf(graph_, x, ops::OpKind::add);
    if (!add || add->inputs.size() != 2) return nullptr;
    const core::OperandDesc& xd = graph_.operand(x).desc;
    for (OperandId in : add->inputs)
      if (graph_.operand(in).desc != xd) return nullptr;
    return add;
  }
  // The new node over `x` (moving a residual add into it) computing `y`;
  // `pattern` are the nodes reading x inside the pattern.
  void Emit(std::shared_ptr<ops::FusedNormalizationAttrs> attrs, OperandId x, OperandId scale, OperandId bias,
            OperandId y, std::string label, std::initializer_list<const Node*> pattern, PassStats& stats);

  Graph& graph_;
  std::set<OperandId> graph_outputs_;
  std::vector<std::vector<uint32_t>> consumers_;
};

bool Matcher::WrittenOut(uint32_t s, PassStats& stats) {
  const Node& sqrt = graph_.nodes()[s];
  const Node* eps_add = Sole(sqrt.inputs[0], ops::OpKind::add);
  if (!eps_add) return false;
  std::optional<float> eps = ScalarConstant(graph_, eps_add->inputs[1]);
  OperandId v = eps_add->inputs[0];
  if (!eps) {
    eps = ScalarConstant(graph_, eps_add->inputs[0]);
    v = eps_add->inputs[1];
  }
  const Node* var_mean = eps ? Sole(v, ops::OpKind::reduceMean) : nullptr;
  const uint32_t axes = var_mean ? TrailingMeanAxes(graph_, *var_mean) : 0;
  if (axes == 0) return false;
  // The squares of c.
  const OperandId sq = var_mean->inputs[0];
  const Node* square = Sole(sq, ops::OpKind::pow);
  if (square && ScalarConstant(graph_, square->inputs[1]) != 2.0f) square = nullptr;
  if (!square) {
    square = Sole(sq, ops::OpKind::mul);
    if (square && square->inputs[0] != square->inputs[1]) square = nullptr;
  }
  if (!square) return false;
  const OperandId c = square->inputs[0];
  // y = c / d or c * (1 / d).
  const OperandId d = sqrt.outputs[0];
  const Node* scaling = SoleReader(d, ops::OpKind::div);
  const Node* reciprocal = nullptr;
  if (scaling && (scaling->inputs[1] != d || scaling->inputs[0] != c)) scaling = nullptr;
  if (!scaling && (reciprocal = SoleReader(d, ops::OpKind::reciprocal))) {
    scaling = SoleReader(reciprocal->outputs[0], ops::OpKind::mul);
    if (scaling && Other(*scaling, reciprocal->outputs[0]) != c) scaling = nullptr;
  }
  if (!scaling) return false;
  // layerNorm: c = x - mean(x) over the same axes, read only by the pattern.
  auto attrs = std::make_shared<ops::FusedNormalizationAttrs>();
  attrs->axes = axes;
  attrs->epsilon = *eps;
  attrs->as_written = true;
  OperandId x = c;
  const Node* centre = ProducerOf(graph_, c, ops::OpKind::sub);
  const Node* mean = centre ? Sole(centre->inputs[1], ops::OpKind::reduceMean) : nullptr;
  const bool layer = mean && mean->inputs[0] == centre->inputs[0] && TrailingMeanAxes(graph_, *mean) == axes &&
                     ReadOnlyBy(c, {square, scaling});
  if (layer) x = centre->inputs[0];
  attrs->rms = !layer;
  const core::OperandDesc& xd = graph_.operand(x).desc;
  if (!IsFloatingPoint(xd.type) || graph_.operand(scaling->outputs[0]).desc != xd) return false;
  // Then * scale and + bias, each of the window's shape.
  OperandId y = scaling->outputs[0];
  auto affine = [&](ops::OpKind op) {
    const Node* n = SoleReader(y, op);
    if (!n || n->inputs.size() != 2 || n->inputs[0] == n->inputs[1]) return kNoOperand;
    const OperandId other = Other(*n, y);
    const core::OperandDesc& od = graph_.operand(other).desc;
    if (od.type != xd.type || !ops::FitsNormalizedWindow(od.shape, xd.shape, axes) ||
        graph_.operand(n->outputs[0]).desc != xd)
      return kNoOperand;
    y = n->outputs[0];
    return other;
  };
  const OperandId scale = affine(ops::OpKind::mul);
  const OperandId bias = affine(ops::OpKind::add);
  const std::string label = graph_.nodes()[graph_.operand(y).producer].label;
  if (layer) Emit(attrs, x, scale, bias, y, label, {mean, centre}, stats);
  else Emit(attrs, x, scale, bias, y, label, {square, scaling}, stats);
  return true;
}

bool Matcher::SkipIntoBuiltin(uint32_t n, PassStats& stats) {
  const Node& norm = graph_.nodes()[n];
  const OperandId x = norm.inputs[0];
  const core::OperandDesc& xd = graph_.operand(x).desc;
  const uint32_t rank = static_cast<uint32_t>(xd.shape.size());
  const auto& la = ops::AttrsAs<ops::LayerNormalizationAttrs>(*norm.attrs);
  const uint32_t axes = ops::TrailingAxesCount(ops::LayerNormalizationAxes(la, rank), rank);
  if (axes == 0 || !ResidualAdd(x)) return false;
  auto attrs = std::make_shared<ops::FusedNormalizationAttrs>();
  attrs->axes = axes;
  attrs->epsilon = la.epsilon;
  auto input = [&](size_t i) { return i < norm.inputs.size() ? norm.inputs[i] : kNoOperand; };
  Emit(attrs, x, input(1), input(2), norm.outputs[0], norm.label, {&norm}, stats);
  return true;
}

void Matcher::Emit(std::shared_ptr<ops::FusedNormalizationAttrs> attrs, OperandId x, OperandId scale, OperandId bias,
                   OperandId y, std::string label, std::initializer_list<const Node*> pattern,
                   PassStats& stats) {
  std::vector<OperandId> inputs{x, kNoOperand, scale, bias};
  // A residual sum that the scale or bias is computed from (or is) stays an
  // add: as the fused node's second output it would feed its own input, and
  // the program would read it before computing it (found by the C API
  // fuzzer: a bias of fusedElementwise ops over the sum).
  const Node* add = ResidualAdd(x);
  if (add) {
    std::vector<OperandId> affine;
    for (OperandId v : {scale, bias})
      if (v != kNoOperand) affine.push_back(v);
    const uint32_t sum_producer = static_cast<uint32_t>(graph_.operand(x).producer);
    const std::vector<uint32_t> cone = graph_.NodesReaching(affine);
    if (std::find(cone.begin(), cone.end(), sum_producer) != cone.end()) add = nullptr;
  }
  if (add) {
    inputs[0] = add->inputs[0];
    inputs[1] = add->inputs[1];
    attrs->sum_output = !ReadOnlyBy(x, pattern);
    ++stats.skip_normalizations;
  }
  while (inputs.back() == kNoOperand) inputs.pop_back();
  const core::OperandDesc desc = graph_.operand(y).desc;
  const bool sum_output = attrs->sum_output;
  std::vector<core::OperandDesc> descs{desc};
  if (sum_output) descs.push_back(desc);
  const uint32_t node = static_cast<uint32_t>(graph_.nodes().size());
  graph_.AppendNode(ops::OpKind::fusedNormalization, label, std::move(inputs), std::move(attrs), std::move(descs));
  graph_.SetNodeOutput(node, 0, y);  // the pattern's nodes become unreachable
  if (sum_output) graph_.SetNodeOutput(node, 1, x);  // and so does the add
}

}  // namespace

int FuseNormalization(Graph& graph, const std::map<std::string, OperandId>& outputs, PassStats& stats) {
  Matcher matcher(graph, outputs);
  std::vector<OperandId> output_ids;
  for (const auto& [name, id] : outputs) output_ids.push_back(id);
  int fused = 0;
  for (uint32_t i : graph.NodesReaching(output_ids)) {
    const ops::OpKind op = graph.nodes()[i].op;
    if (op == ops::OpKind::sqrt ? matcher.WrittenOut(i, stats)
                                : op == ops::OpKind::layerNormalization && matcher.SkipIntoBuiltin(i, stats))
      ++fused;
  }
  return fused;
}

}  // namespace webnn::graph
