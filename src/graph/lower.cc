#include "graph/lower.h"

namespace webnn::graph {

LoweredGraph Lower(const Graph& graph, const std::map<std::string, OperandId>& outputs) {
  LoweredGraph out;
  std::vector<OperandId> output_ids;
  for (const auto& [name, id] : outputs) output_ids.push_back(id);
  out.nodes = graph.NodesReaching(output_ids);
  out.value_of_operand.assign(graph.operands().size(), -1);

  auto value_for = [&](OperandId id) -> int32_t {
    if (id == kNoOperand) return -1;
    int32_t& v = out.value_of_operand[id];
    if (v >= 0) return v;
    const Operand& o = graph.operand(id);
    ops::ProgramValue pv;
    pv.desc = o.desc;
    switch (o.kind) {
      case Operand::Kind::kInput: pv.kind = ops::ProgramValue::Kind::kInput; break;
      case Operand::Kind::kConstant: pv.kind = ops::ProgramValue::Kind::kConstant; break;
      case Operand::Kind::kIntermediate: pv.kind = ops::ProgramValue::Kind::kIntermediate; break;
    }
    v = static_cast<int32_t>(out.program.values.size());
    out.program.values.push_back(std::move(pv));
    out.operand_of_value.push_back(id);
    return v;
  };

  for (uint32_t n : out.nodes) {
    const Node& node = graph.nodes()[n];
    ops::ProgramStep step;
    step.op = node.op;
    step.label = node.label;
    step.attrs = node.attrs;
    for (OperandId id : node.inputs) step.inputs.push_back(value_for(id));
    for (OperandId id : node.outputs) step.outputs.push_back(value_for(id));
    out.program.steps.push_back(std::move(step));
  }
  // Graph outputs live in the caller's tensors, not in the arena.
  for (OperandId id : output_ids) out.program.values[value_for(id)].kind = ops::ProgramValue::Kind::kOutput;
  return out;
}

}  // namespace webnn::graph
