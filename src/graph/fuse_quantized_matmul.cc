// FuseQuantizedMatmul (declared in graph/passes.h): the MatMulNBits pattern,
// matmul or gemm reading a constant blockwise dequantizeLinear, becomes one
// quantizedMatmul node (src/ops/quantized_matmul.h) that reads the quantized
// weight, scale and zero point directly.
//
// This is an exact rewrite: quantizedMatmul computes each weight as
// dequantizeLinear does and the product as matmul does. Only the dequantized
// float copy of the weight goes away, which is the point: a 4-bit weight is
// 1/8 of its float32 copy in memory and in bandwidth.
//
// The dequantizeLinear must read constants with host bytes (the device packs
// them when the graph is compiled) with a rank-2 scale; its float output may
// have other readers (they keep it). A gemm joins when it is a plain product
// plus at most a bias: no aTranspose, alpha 1, and C absent or (beta 1) of
// shape [N], [1, N], [1] or [] (the bias broadcast along N).
//
// FuseSwiGlu then joins the gate and up projections of a feed-forward block:
//   mul(mul(g, sigmoid(g)), u)   (either operand order in both muls)
// with g and u quantizedMatmuls of the same `a`, weights of one type and
// shape, no bias or activation, and g, sigmoid(g), silu and u read only
// there, becomes one gated quantizedMatmul (ops/quantized_matmul.h): the
// device computes both projections column group by column group and writes
// only silu(g) * u.

#include <algorithm>

#include "graph/pass_util.h"
#include "graph/passes.h"
#include "ops/gemm.h"
#include "ops/matmul.h"
#include "ops/quantized_matmul.h"

namespace webnn::graph {
namespace {

bool IsQuantizedType(core::DataType t) {
  return t == core::DataType::kInt4 || t == core::DataType::kUint4 || t == core::DataType::kInt8 ||
         t == core::DataType::kUint8;
}

// The dequantizeLinear node producing `w` when it reads constant int weights
// with a rank-2 scale, else null.
const Node* ConstantDequantize(const Graph& graph, OperandId w) {
  const Node* dq = ProducerOf(graph, w, ops::OpKind::dequantizeLinear);
  if (!dq || dq->inputs.size() != 3) return nullptr;
  for (OperandId in : dq->inputs)
    if (!IsHostConstant(graph, in)) return nullptr;
  const core::OperandDesc& weight = graph.operand(dq->inputs[0]).desc;
  if (!IsQuantizedType(weight.type) || weight.shape.size() != 2) return nullptr;
  return dq;
}

// gemm's C when it is a bias along N: all of C's dimensions but the last are
// 1 (or absent), the last is 1 or N.
bool IsBiasAlongN(const core::OperandDesc& c, const core::Dim& n) {
  if (c.shape.size() > 2) return false;
  for (size_t i = 0; i + 1 < c.shape.size(); ++i)
    if (!(c.shape[i].IsStatic() && c.shape[i].size == 1)) return false;
  if (c.shape.empty()) return true;
  const core::Dim& last = c.shape.back();
  return (last.IsStatic() && last.size == 1) || (last.IsStatic() && n.IsStatic() && last.size == n.size);
}

// The quantizedMatmul attributes for node `n` (matmul or gemm reading W as
// its second input), or null when `n` cannot become one.
std::shared_ptr<ops::QuantizedMatmulAttrs> FusedAttrs(const Graph& graph, const Node& n) {
  auto attrs = std::make_shared<ops::QuantizedMatmulAttrs>();
  if (n.op == ops::OpKind::matmul) {
    if (graph.operand(n.inputs[1]).desc.shape.size() != 2) return nullptr;
    attrs->activation = ops::AttrsAs<ops::MatmulAttrs>(*n.attrs).activation;
    return attrs;
  }
  if (n.op != ops::OpKind::gemm) return nullptr;
  const auto& gemm = ops::AttrsAs<ops::GemmAttrs>(*n.attrs);
  if (gemm.aTranspose || gemm.alpha != 1.0) return nullptr;
  if (n.inputs.size() > 2 && n.inputs[2] != kNoOperand) {
    const core::OperandDesc& y = graph.operand(n.outputs[0]).desc;
    if (gemm.beta != 1.0 || !IsBiasAlongN(graph.operand(n.inputs[2]).desc, y.shape[1])) return nullptr;
  }
  attrs->weight_transposed = gemm.bTranspose;
  attrs->activation = gemm.activation;
  return attrs;
}

}  // namespace

int FuseQuantizedMatmul(Graph& graph, const std::map<std::string, OperandId>& outputs, bool int8_activations) {
  std::vector<OperandId> output_ids;
  for (const auto& [name, id] : outputs) output_ids.push_back(id);
  int fused = 0;
  for (uint32_t i : graph.NodesReaching(output_ids)) {
    const Node& n = graph.nodes()[i];
    if ((n.op != ops::OpKind::matmul && n.op != ops::OpKind::gemm) || n.inputs.size() < 2 || n.outputs.size() != 1)
      continue;
    const Node* dq = ConstantDequantize(graph, n.inputs[1]);
    if (dq == nullptr) continue;
    std::shared_ptr<ops::QuantizedMatmulAttrs> attrs = FusedAttrs(graph, n);
    if (!attrs) continue;
    attrs->int8_activations = int8_activations;
    std::vector<OperandId> inputs{n.inputs[0], dq->inputs[0], dq->inputs[1], dq->inputs[2]};
    if (n.inputs.size() > 2 && n.inputs[2] != kNoOperand) inputs.push_back(n.inputs[2]);
    const OperandId y = n.outputs[0];
    const std::string label = n.label;
    const core::OperandDesc desc = graph.operand(y).desc;
    const uint32_t node = static_cast<uint32_t>(graph.nodes().size());
    graph.AppendNode(ops::OpKind::quantizedMatmul, label, std::move(inputs), std::move(attrs), {desc});
    graph.SetNodeOutput(node, 0, y);  // the matmul (and a dequantizeLinear read only by it) become unreachable
    ++fused;
  }
  return fused;
}

int FuseSwiGlu(Graph& graph, const std::map<std::string, OperandId>& outputs) {
  const std::set<OperandId> graph_outputs = OutputSet(outputs);
  const std::vector<std::vector<uint32_t>> consumers = graph.Consumers();
  auto sole = [&](OperandId x, ops::OpKind op) -> const Node* {
    const std::optional<uint32_t> p = SoleProducer(graph, x, graph_outputs, consumers);
    return p && graph.nodes()[*p].op == op ? &graph.nodes()[*p] : nullptr;
  };
  // A quantizedMatmul without bias, activation or gate of its own.
  auto plain = [&](const Node* q) {
    if (!q || q->op != ops::OpKind::quantizedMatmul || q->inputs.size() != 4) return false;
    const auto& attrs = ops::AttrsAs<ops::QuantizedMatmulAttrs>(*q->attrs);
    return !attrs.activation && !attrs.gated;
  };
  std::vector<OperandId> output_ids(graph_outputs.begin(), graph_outputs.end());
  int fused = 0;
  for (uint32_t i : graph.NodesReaching(output_ids)) {
    const Node& out_mul = graph.nodes()[i];
    if (out_mul.op != ops::OpKind::mul || out_mul.inputs.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      const OperandId silu = out_mul.inputs[side], u = out_mul.inputs[1 - side];
      const Node* silu_mul = sole(silu, ops::OpKind::mul);
      if (!silu_mul || silu == u) continue;
      // silu = g * sigmoid(g), g read only by the two.
      const Node* sigmoid = nullptr;
      OperandId g = kNoOperand;
      for (int s = 0; s < 2 && !sigmoid; ++s) {
        sigmoid = sole(silu_mul->inputs[s], ops::OpKind::sigmoid);
        g = silu_mul->inputs[1 - s];
        if (sigmoid && sigmoid->inputs[0] != g) sigmoid = nullptr;
      }
      if (!sigmoid || graph_outputs.count(g) ||
          !std::all_of(consumers[g].begin(), consumers[g].end(), [&](uint32_t c) {
            return &graph.nodes()[c] == sigmoid || &graph.nodes()[c] == silu_mul;
          }))
        continue;
      const Node* gate = ProducerOf(graph, g, ops::OpKind::quantizedMatmul);
      const Node* up = sole(u, ops::OpKind::quantizedMatmul);
      if (!plain(gate) || !plain(up) || gate->inputs[0] != up->inputs[0]) continue;
      const auto& ga = ops::AttrsAs<ops::QuantizedMatmulAttrs>(*gate->attrs);
      if (ga.weight_transposed != ops::AttrsAs<ops::QuantizedMatmulAttrs>(*up->attrs).weight_transposed) continue;
      bool same = true;
      for (size_t in = 1; in < 4; ++in)
        same = same && graph.operand(gate->inputs[in]).desc == graph.operand(up->inputs[in]).desc;
      const core::OperandDesc desc = graph.operand(out_mul.outputs[0]).desc;
      if (!same || graph.operand(g).desc != desc || graph.operand(u).desc != desc) continue;
      auto attrs = std::make_shared<ops::QuantizedMatmulAttrs>(ga);
      attrs->gated = true;
      std::vector<OperandId> inputs{gate->inputs[0], gate->inputs[1], gate->inputs[2], gate->inputs[3], kNoOperand,
                                    up->inputs[1],   up->inputs[2],   up->inputs[3]};
      const OperandId y = out_mul.outputs[0];
      const std::string label = out_mul.label;
      const uint32_t node = static_cast<uint32_t>(graph.nodes().size());
      graph.AppendNode(ops::OpKind::quantizedMatmul, label, std::move(inputs), std::move(attrs), {desc});
      graph.SetNodeOutput(node, 0, y);  // both projections, the sigmoid and the muls become unreachable
      ++fused;
      break;
    }
  }
  return fused;
}

}  // namespace webnn::graph
