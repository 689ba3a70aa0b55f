// Helpers shared by the graph passes (src/graph/passes.h and the pass files
// beside it).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace webnn::graph {

// The operand ids of a graph's named outputs.
std::set<OperandId> OutputSet(const std::map<std::string, OperandId>& outputs);

// The node producing `x` when `x` is a float intermediate read by exactly one
// node and not a graph output: its value then need not exist on its own.
std::optional<uint32_t> SoleProducer(const Graph& graph, OperandId x, const std::set<OperandId>& graph_outputs,
                                     const std::vector<std::vector<uint32_t>>& consumers);

// The node producing `x` when it is an `op` node, else null.
const Node* ProducerOf(const Graph& graph, OperandId x, ops::OpKind op);

// True when `id` is a constant whose bytes are in host memory (the passes
// can read it; a device packs it when the graph is compiled).
bool IsHostConstant(const Graph& graph, OperandId id);

// The float32 values of a constant with host data, or nothing.
std::optional<std::vector<float>> HostFloats(const Graph& graph, OperandId id);

// The value of a one-element float32 or float16 host constant (its shape
// checked before any data is read; float16 widened exactly).
std::optional<float> ScalarConstant(const Graph& graph, OperandId id);

}  // namespace webnn::graph
