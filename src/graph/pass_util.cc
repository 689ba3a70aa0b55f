#include "graph/pass_util.h"

#include <cstring>

#include "core/float16.h"

namespace webnn::graph {

std::set<OperandId> OutputSet(const std::map<std::string, OperandId>& outputs) {
  std::set<OperandId> ids;
  for (const auto& [name, id] : outputs) ids.insert(id);
  return ids;
}

std::optional<uint32_t> SoleProducer(const Graph& graph, OperandId x, const std::set<OperandId>& graph_outputs,
                                     const std::vector<std::vector<uint32_t>>& consumers) {
  const Operand& xo = graph.operand(x);
  if (xo.producer < 0 || !IsFloatingPoint(xo.desc.type)) return std::nullopt;
  if (graph_outputs.count(x) || consumers[x].size() != 1) return std::nullopt;
  return static_cast<uint32_t>(xo.producer);
}

const Node* ProducerOf(const Graph& graph, OperandId x, ops::OpKind op) {
  if (x == kNoOperand) return nullptr;
  const int32_t p = graph.operand(x).producer;
  if (p < 0 || graph.nodes()[p].op != op) return nullptr;
  return &graph.nodes()[p];
}

bool IsHostConstant(const Graph& graph, OperandId id) {
  if (id == kNoOperand) return false;
  const Operand& o = graph.operand(id);
  return o.kind == Operand::Kind::kConstant && o.constant && o.constant->host;
}

std::optional<std::vector<float>> HostFloats(const Graph& graph, OperandId id) {
  if (!IsHostConstant(graph, id)) return std::nullopt;
  const Operand& o = graph.operand(id);
  if (o.desc.type != core::DataType::kFloat32) return std::nullopt;
  std::vector<float> values(o.constant->host->size() / sizeof(float));
  std::memcpy(values.data(), o.constant->host->data(), values.size() * sizeof(float));
  return values;
}

std::optional<float> ScalarConstant(const Graph& graph, OperandId id) {
  if (id == kNoOperand || core::ElementCount(graph.operand(id).desc.shape) != 1 || !IsHostConstant(graph, id))
    return std::nullopt;
  const Operand& o = graph.operand(id);
  if (o.desc.type == core::DataType::kFloat16 && o.constant->host->size() == sizeof(uint16_t)) {
    uint16_t bits;
    std::memcpy(&bits, o.constant->host->data(), sizeof(bits));
    return core::HalfBitsToFloat(bits);  // exact
  }
  const auto v = HostFloats(graph, id);
  return v && v->size() == 1 ? std::optional<float>((*v)[0]) : std::nullopt;
}

}  // namespace webnn::graph
