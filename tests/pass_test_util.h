// Helpers for the graph-pass tests (tests/passes_*_test.cc) that build
// graph::Graph directly: operands, nodes, and the ops left reaching the
// outputs after a pass.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "ops/schema.h"

namespace webnn::test {

inline core::OperandDesc StaticDesc(core::DataType type, const std::vector<uint32_t>& shape) {
  core::OperandDesc desc{type, {}};
  for (uint32_t d : shape) desc.shape.push_back(core::Dim::Static(d));
  return desc;
}

// A node of `op` (validated and shape-inferred as the builder does); its first output.
inline graph::OperandId PassNode(graph::Graph& g, ops::OpKind op, std::vector<graph::OperandId> inputs,
                                 std::shared_ptr<const ops::OpAttrs> attrs = std::make_shared<ops::NoAttrs>()) {
  return g.AddNode(op, "", std::move(inputs), std::move(attrs), ops::SchemaLimits(ops::GetSchema(op)))[0];
}

// The ops of the nodes reaching `outputs`, by name, sorted (the order among
// independent nodes is the lowering's business).
inline std::vector<std::string> SortedLiveOps(const graph::Graph& g, const std::map<std::string, graph::OperandId>& outputs) {
  std::vector<graph::OperandId> ids;
  for (const auto& [name, id] : outputs) ids.push_back(id);
  std::vector<std::string> ops;
  for (uint32_t i : g.NodesReaching(ids)) ops.emplace_back(ops::OpName(g.nodes()[i].op));
  std::sort(ops.begin(), ops.end());
  return ops;
}

}  // namespace webnn::test
