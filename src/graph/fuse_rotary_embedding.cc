// FuseRotaryEmbedding (declared in graph/passes.h): rotary position
// embedding (RoPE, rotate-half layout) written out as WebNN ops becomes one
// rotaryEmbedding node (src/ops/rotary_embedding.h).
//
// x1, x2 are x's halves along its last axis (D = 2h, D static): the two
// outputs of one split into equal halves, or slice(x, [0, h)) and
// slice(x, [h, D)) of that axis with strides 1 (whole along the others).
// Two forms:
//   half tables (scripts/gen_llm_decoder.py, ONNX Runtime's RotaryEmbedding
//   as scripts/onnx2webnn_lib/contrib.py converts it), cos/sin [..., h]:
//     concat([sub(mul(x1, cos), mul(x2, sin)),
//             add(mul(x2, cos), mul(x1, sin))], last axis)
//   full tables (HuggingFace's rotate_half as torch exports it), cos/sin
//   [..., D]:
//     add(mul(x, cos), mul(concat([neg(x2), x1], last axis), sin))
// with the operands of each mul and add in either order (the sub's as
// written). The intermediates (x1, x2, the muls, the sub, add and neg, the
// rotated half) must be read only inside the pattern and not be graph
// outputs; x, cos and sin may have other readers. cos and sin have one shape
// which broadcasts to x's without making the output bigger than x, and one
// float type with x. The rewrite is exact: the node rounds the same products
// and sums (x + (-a) * b is x - a * b in IEEE arithmetic, and add and mul
// commute).
#include <algorithm>

#include "graph/pass_util.h"
#include "graph/passes.h"
#include "ops/concat.h"
#include "ops/rotary_embedding.h"
#include "ops/slice.h"
#include "ops/split.h"

namespace webnn::graph {
namespace {

// The static even size of x's last dimension, else 0.
uint32_t EvenLastDim(const Graph& graph, OperandId x) {
  const core::Shape& s = graph.operand(x).desc.shape;
  if (s.empty() || !s.back().IsStatic() || s.back().size % 2 != 0) return 0;
  return s.back().size;
}

// slice(x) taking [start, start + h) of the last axis, all of the others,
// with strides 1.
bool IsHalfSlice(const Graph& graph, const Node& slice, uint32_t start, uint32_t h) {
  const auto& a = ops::AttrsAs<ops::SliceAttrs>(*slice.attrs);
  const core::Shape& xs = graph.operand(slice.inputs[0]).desc.shape;
  const size_t last = xs.size() - 1;
  if (a.starts.size() != xs.size() || a.sizes.size() != xs.size()) return false;
  if (a.strides && std::any_of(a.strides->begin(), a.strides->end(), [](uint32_t s) { return s != 1; })) return false;
  for (size_t d = 0; d < last; ++d)
    if (a.starts[d] != 0 || !xs[d].IsStatic() || a.sizes[d] != xs[d].size) return false;
  return a.starts[last] == start && a.sizes[last] == h;
}

// x when x1 and x2 are x's first and second halves along its last axis (one
// split, or two slices), else kNoOperand.
OperandId HalvesOf(const Graph& graph, OperandId x1, OperandId x2) {
  const Operand& o1 = graph.operand(x1);
  const Operand& o2 = graph.operand(x2);
  if (o1.producer < 0 || o2.producer < 0) return kNoOperand;
  const Node& n1 = graph.nodes()[o1.producer];
  const Node& n2 = graph.nodes()[o2.producer];
  if (n1.op == ops::OpKind::split && o1.producer == o2.producer) {
    const OperandId x = n1.inputs[0];
    const uint32_t d = EvenLastDim(graph, x);
    const auto& a = ops::AttrsAs<ops::SplitAttrs>(*n1.attrs);
    const auto* count = std::get_if<uint32_t>(&a.splits);
    const auto* sizes = std::get_if<std::vector<uint32_t>>(&a.splits);
    const bool halves = count ? *count == 2 : *sizes == std::vector<uint32_t>{d / 2, d / 2};
    const bool last = a.axis + 1 == graph.operand(x).desc.rank();
    return d && halves && last && o1.producer_output == 0 && o2.producer_output == 1 ? x : kNoOperand;
  }
  if (n1.op == ops::OpKind::slice && n2.op == ops::OpKind::slice && n1.inputs[0] == n2.inputs[0]) {
    const OperandId x = n1.inputs[0];
    const uint32_t d = EvenLastDim(graph, x);
    return d && IsHalfSlice(graph, n1, 0, d / 2) && IsHalfSlice(graph, n2, d / 2, d / 2) ? x : kNoOperand;
  }
  return kNoOperand;
}

// A concat of two operands along their last axis.
bool IsLastAxisConcat(const Graph& graph, const Node& n) {
  return n.op == ops::OpKind::concat && n.inputs.size() == 2 &&
         ops::AttrsAs<ops::ConcatAttrs>(*n.attrs).axis + 1 == graph.operand(n.outputs[0]).desc.rank();
}

}  // namespace

int FuseRotaryEmbedding(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const std::vector<std::vector<uint32_t>> consumers = graph.Consumers();
  // An intermediate only the pattern reads: its producer, if it is `op`.
  auto sole = [&](OperandId v, ops::OpKind op) -> const Node* {
    const std::optional<uint32_t> p = SoleProducer(graph, v, graph_outputs, consumers);
    return p && graph.nodes()[*p].op == op ? &graph.nodes()[*p] : nullptr;
  };
  // v is not a graph output, and exactly the nodes making these operands
  // read it (a half of x read by the pattern's two muls, or by one node).
  auto read_only_by = [&](OperandId v, std::vector<OperandId> readers_outputs) {
    std::vector<uint32_t> readers;
    for (OperandId r : readers_outputs) readers.push_back(static_cast<uint32_t>(graph.operand(r).producer));
    std::sort(readers.begin(), readers.end());
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    return !graph_outputs.count(v) && consumers[v] == readers;
  };
  // `n` is mul(a, b) or mul(b, a).
  auto is_mul_of = [](const Node* n, OperandId a, OperandId b) {
    return n && ((n->inputs[0] == a && n->inputs[1] == b) || (n->inputs[0] == b && n->inputs[1] == a));
  };
  std::vector<OperandId> output_ids(graph_outputs.begin(), graph_outputs.end());
  int fused = 0;
  for (uint32_t i : graph.NodesReaching(output_ids)) {
    const Node& root = graph.nodes()[i];
    if (root.outputs.size() != 1) continue;
    const OperandId y = root.outputs[0];
    OperandId x = kNoOperand, cos = kNoOperand, sin = kNoOperand;
    bool full = false;
    if (IsLastAxisConcat(graph, root)) {
      // Half tables: concat(sub(mul(x1, cos), mul(x2, sin)), add(mul(x2, cos), mul(x1, sin))).
      const Node* sub = sole(root.inputs[0], ops::OpKind::sub);
      const Node* add = sole(root.inputs[1], ops::OpKind::add);
      const Node* m1 = sub ? sole(sub->inputs[0], ops::OpKind::mul) : nullptr;
      const Node* m2 = sub ? sole(sub->inputs[1], ops::OpKind::mul) : nullptr;
      const Node* a0 = add ? sole(add->inputs[0], ops::OpKind::mul) : nullptr;
      const Node* a1 = add ? sole(add->inputs[1], ops::OpKind::mul) : nullptr;
      if (!m1 || !m2 || !a0 || !a1) continue;
      // Which operand of m1 is x1 (the other cos), and of m2 x2 (the other sin).
      for (int k = 0; k < 4 && x == kNoOperand; ++k) {
        const OperandId x1 = m1->inputs[k & 1], c = m1->inputs[1 - (k & 1)];
        const OperandId x2 = m2->inputs[k >> 1], s = m2->inputs[1 - (k >> 1)];
        // The add's muls, in either order: mul(x2, cos) and mul(x1, sin).
        const bool swapped = !is_mul_of(a0, x2, c);
        const Node* x2c = swapped ? a1 : a0;
        const Node* x1s = swapped ? a0 : a1;
        if (!is_mul_of(x2c, x2, c) || !is_mul_of(x1s, x1, s)) continue;
        if (!read_only_by(x1, {m1->outputs[0], x1s->outputs[0]}) || !read_only_by(x2, {m2->outputs[0], x2c->outputs[0]}))
          continue;
        x = HalvesOf(graph, x1, x2);
        cos = c;
        sin = s;
      }
    } else if (root.op == ops::OpKind::add) {
      // Full tables: add(mul(x, cos), mul(concat(neg(x2), x1), sin)).
      // x when r is concat(neg(x2), x1) of x's halves read only there.
      auto rotated_half_of = [&](OperandId r) {
        const Node* rot = sole(r, ops::OpKind::concat);
        const Node* neg = rot && IsLastAxisConcat(graph, *rot) ? sole(rot->inputs[0], ops::OpKind::neg) : nullptr;
        if (!neg || !read_only_by(rot->inputs[1], {r}) || !read_only_by(neg->inputs[0], {neg->outputs[0]}))
          return kNoOperand;
        return HalvesOf(graph, rot->inputs[1], neg->inputs[0]);
      };
      for (int k = 0; k < 4 && x == kNoOperand; ++k) {
        const Node* plain = sole(root.inputs[k & 1], ops::OpKind::mul);
        const Node* rotated = sole(root.inputs[1 - (k & 1)], ops::OpKind::mul);
        if (!plain || !rotated) continue;
        const size_t r = k >> 1;  // rotated's operand that is the rotated x
        const OperandId whole = rotated_half_of(rotated->inputs[r]);
        if (whole == kNoOperand || (plain->inputs[0] != whole && plain->inputs[1] != whole)) continue;
        x = whole;
        cos = plain->inputs[plain->inputs[0] == whole ? 1 : 0];
        sin = rotated->inputs[1 - r];
        full = true;
      }
    }
    if (x == kNoOperand) continue;
    const core::OperandDesc& xd = graph.operand(x).desc;
    const core::OperandDesc& cd = graph.operand(cos).desc;
    const core::OperandDesc desc = graph.operand(y).desc;
    const uint32_t d = xd.shape.back().size;
    // One float type; tables of one shape and the form's width, which do not
    // broadcast x to a bigger output (then they fit the node's shapes).
    if ((xd.type != core::DataType::kFloat32 && xd.type != core::DataType::kFloat16) || cd.type != xd.type ||
        graph.operand(sin).desc != cd || desc != xd || cd.shape.empty() ||
        cd.shape.back() != core::Dim::Static(full ? d : d / 2))
      continue;
    auto attrs = std::make_shared<ops::RotaryEmbeddingAttrs>();
    attrs->full_tables = full;
    const std::string label = root.label;
    const uint32_t node = static_cast<uint32_t>(graph.nodes().size());
    graph.AppendNode(ops::OpKind::rotaryEmbedding, label, {x, cos, sin}, std::move(attrs), {desc});
    graph.SetNodeOutput(node, 0, y);  // the pattern's nodes become unreachable
    ++fused;
  }
  return fused;
}

}  // namespace webnn::graph
