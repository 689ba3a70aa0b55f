// Lowering: the nodes of a graph that reach its outputs become a Program (the
// list of steps a device compiles), with one value per operand used.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "ops/device.h"

namespace webnn::graph {

struct LoweredGraph {
  ops::Program program;
  std::vector<uint32_t> nodes;              // graph nodes in program order
  std::vector<int32_t> value_of_operand;    // operand id -> value id, -1 if unused
  std::vector<OperandId> operand_of_value;  // value id -> operand id
};

LoweredGraph Lower(const Graph& graph, const std::map<std::string, OperandId>& outputs);

}  // namespace webnn::graph
