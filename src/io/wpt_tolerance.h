// WPT's tolerances (webnn/resources/utils.js and the per-op conformance
// files, as recorded in tests/data/wpt) for one op, and the rule
// `webnn oracle` applies to a whole graph (docs/ORACLE.md): an output may be
// as many ULP from the truth as the sum of the ULP budgets of the ops in its
// cone (every op it depends on), as WPT sums them over the ops of its
// multi-op cases; an op that WPT checks with an absolute tolerance (sin, cos,
// tan, erf) adds that to the output's absolute budget instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace webnn::io {

struct Tolerance {
  uint64_t ulp = 0;  // integers: the allowed |difference|
  double atol = 0;   // an element within it passes whatever its ULP distance
};

// WPT's tolerance for `node` of `ir` when the graph's output is of `type`
// (WPT picks per-op values by the expected output's type), at the concrete
// operand shapes `shapes` (indexed by operand id).
Tolerance WptOpTolerance(const graph::Graph& ir, const graph::Node& node,
                         const std::vector<std::vector<uint32_t>>& shapes, MLOperandDataType type);

struct ConeTolerance {
  Tolerance total;
  // One line per op of the cone with a non-zero budget: "conv2d 'stem' 54 ULP".
  std::vector<std::string> terms;
  size_t ops = 0;  // ops in the cone
};
// The rule for a graph: WptOpTolerance summed over the nodes `output`
// depends on, at the output's type.
ConeTolerance WptConeTolerance(const graph::Graph& ir, graph::OperandId output,
                               const std::vector<std::vector<uint32_t>>& shapes);

}  // namespace webnn::io
