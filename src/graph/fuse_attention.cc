// FuseAttention (declared in graph/passes.h): scaled dot-product attention
// written out as WebNN ops becomes one attention node (src/ops/attention.h).
//
// The pattern, from the softmax back and forward:
//   scores = matmul(q, kT)                 q [B, Hq, S, D]
//   kT     = transpose(k, [0, 1, 3, 2])    (else kT itself is the key, [.., D, T])
//   x      = mul(scores, c) | mul(c, scores) | div(scores, c)   optional, c a scalar constant
//   x      = add(x, mask) | add(mask, x)   optional, any mask that broadcasts
//   p      = softmax(x, axis 3)
//   out    = matmul(p, v)
// and k, v may be their key/value heads repeated for grouped-query attention
// as converters write it: reshape to [B, Hkv, 1, T, D], expand to
// [B, Hkv, G, T, D], reshape to [B, Hkv * G, T, D]; the attention node then
// reads the unrepeated [B, Hkv, T, D] tensors. scores, x and p must be read
// only inside the pattern (and not be graph outputs); k, v and their
// repetitions may have other readers, which keep them. The rewrite is exact:
// the node computes the same scores, softmax and product, tiled.
#include "graph/pass_util.h"
#include "graph/passes.h"
#include "ops/attention.h"
#include "ops/matmul.h"
#include "ops/softmax.h"
#include "ops/transpose.h"

namespace webnn::graph {
namespace {

// A matmul without a fused bias or activation.
bool IsPlainMatmul(const Node& n) {
  return n.op == ops::OpKind::matmul && n.inputs.size() == 2 && !ops::AttrsAs<ops::MatmulAttrs>(*n.attrs).activation;
}

core::Dim One() { return core::Dim::Static(1); }

// Element-wise core::MaybeEqual: equal static sizes, or dynamic dimensions
// that may be equal (the reshapes check them at dispatch; when they differ
// there, the attention node's own checks of the key, value and mask lengths
// fail instead).
bool MayMatch(const core::Shape& a, const core::Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!core::MaybeEqual(a[i], b[i])) return false;
  return true;
}

// x's unrepeated heads when x = reshape(expand(reshape(y))) repeats each of
// y's heads G times ([B, H, T, D] -> [B, H, 1, T, D] -> [B, H, G, T, D] ->
// [B, H * G, T, D]); else x.
OperandId Unrepeated(const Graph& graph, OperandId x) {
  const Node* outer = ProducerOf(graph, x, ops::OpKind::reshape);
  const Node* expand = outer ? ProducerOf(graph, outer->inputs[0], ops::OpKind::expand) : nullptr;
  const Node* inner = expand ? ProducerOf(graph, expand->inputs[0], ops::OpKind::reshape) : nullptr;
  if (!inner) return x;
  const OperandId y = inner->inputs[0];
  const core::Shape& ys = graph.operand(y).desc.shape;
  const core::Shape& is = graph.operand(inner->outputs[0]).desc.shape;
  const core::Shape& es = graph.operand(expand->outputs[0]).desc.shape;
  const core::Shape& xs = graph.operand(x).desc.shape;
  if (ys.size() != 4 || !MayMatch(is, core::Shape{ys[0], ys[1], One(), ys[2], ys[3]}) || es.size() != 5 ||
      !es[2].IsStatic() || !MayMatch(es, core::Shape{ys[0], ys[1], es[2], ys[2], ys[3]}) || !ys[1].IsStatic() ||
      !MayMatch(xs, core::Shape{ys[0], core::Dim::Static(ys[1].size * es[2].size), ys[2], ys[3]}))
    return x;
  return y;
}

}  // namespace

int FuseAttention(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const std::vector<std::vector<uint32_t>> consumers = graph.Consumers();
  // An intermediate only the pattern reads: its producer, if it is `op`.
  auto sole = [&](OperandId x, ops::OpKind op) -> const Node* {
    const std::optional<uint32_t> p = SoleProducer(graph, x, graph_outputs, consumers);
    return p && graph.nodes()[*p].op == op ? &graph.nodes()[*p] : nullptr;
  };
  std::vector<OperandId> output_ids(graph_outputs.begin(), graph_outputs.end());
  int fused = 0;
  for (uint32_t i : graph.NodesReaching(output_ids)) {
    const Node& softmax = graph.nodes()[i];
    if (softmax.op != ops::OpKind::softmax || softmax.outputs.size() != 1) continue;
    const OperandId p = softmax.outputs[0];
    const core::OperandDesc& pd = graph.operand(p).desc;
    if (pd.shape.size() != 4 || ops::AttrsAs<ops::SoftmaxAttrs>(*softmax.attrs).axis != 3) continue;
    if (graph_outputs.count(p) || consumers[p].size() != 1) continue;
    const Node& pv = graph.nodes()[consumers[p][0]];
    if (!IsPlainMatmul(pv) || pv.inputs[0] != p || pv.inputs[1] == p) continue;

    // Back from the softmax: add (mask), mul / div (scale), matmul (scores).
    OperandId x = softmax.inputs[0];
    OperandId mask = kNoOperand;
    if (const Node* add = sole(x, ops::OpKind::add)) {
      auto scores_side = [&](OperandId o) {
        const Node* n = sole(o, ops::OpKind::mul);
        if (!n) n = sole(o, ops::OpKind::div);
        if (!n) n = sole(o, ops::OpKind::matmul);
        return n != nullptr;
      };
      const bool first = scores_side(add->inputs[0]);
      if (!first && !scores_side(add->inputs[1])) continue;
      x = add->inputs[first ? 0 : 1];
      mask = add->inputs[first ? 1 : 0];
    }
    auto attrs = std::make_shared<ops::AttentionAttrs>();
    const Node* scaling = sole(x, ops::OpKind::mul);
    if (!scaling) scaling = sole(x, ops::OpKind::div);
    if (scaling) {
      const bool divide = scaling->op == ops::OpKind::div;
      const bool c_first = !divide && ScalarConstant(graph, scaling->inputs[0]).has_value();
      const std::optional<float> c = ScalarConstant(graph, scaling->inputs[c_first ? 0 : 1]);
      if (!c) continue;
      attrs->scale = *c;
      attrs->divide = divide;
      x = scaling->inputs[c_first ? 1 : 0];
    }
    const Node* qk = sole(x, ops::OpKind::matmul);
    if (!qk || !IsPlainMatmul(*qk)) continue;
    const OperandId q = qk->inputs[0];
    OperandId key = qk->inputs[1];
    if (graph.operand(q).desc.shape.size() != 4 || graph.operand(key).desc.shape.size() != 4) continue;
    const Node* transpose = ProducerOf(graph, key, ops::OpKind::transpose);
    const auto& perm = transpose ? ops::AttrsAs<ops::TransposeAttrs>(*transpose->attrs).permutation : std::nullopt;
    if (perm && *perm == std::vector<uint32_t>{0, 1, 3, 2}) {
      key = Unrepeated(graph, transpose->inputs[0]);
    } else {
      attrs->key_transposed = true;
    }
    const OperandId value = Unrepeated(graph, pv.inputs[1]);
    const core::Shape& qs = graph.operand(q).desc.shape;
    const core::Shape& ks = graph.operand(key).desc.shape;
    const core::Shape& vs = graph.operand(value).desc.shape;
    // Batch equal, key and value heads equal and dividing the query heads.
    if (vs.size() != 4 || qs[0] != ks[0] || qs[0] != vs[0] || ks[1] != vs[1] || !qs[1].IsStatic() ||
        !ks[1].IsStatic() || ks[1].size == 0 || qs[1].size % ks[1].size != 0)
      continue;
    std::vector<OperandId> inputs{q, key, value};
    if (mask != kNoOperand) inputs.push_back(mask);
    const OperandId y = pv.outputs[0];
    const std::string label = pv.label;
    const core::OperandDesc desc = graph.operand(y).desc;
    const uint32_t node = static_cast<uint32_t>(graph.nodes().size());
    graph.AppendNode(ops::OpKind::attention, label, std::move(inputs), std::move(attrs), {desc});
    graph.SetNodeOutput(node, 0, y);  // the pattern's nodes become unreachable
    ++fused;
  }
  return fused;
}

}  // namespace webnn::graph
