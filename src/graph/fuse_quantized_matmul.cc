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

int FuseQuantizedMatmul(Graph& graph, const std::map<std::string, OperandId>& outputs) {
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

}  // namespace webnn::graph
