// Helpers for the graph-pass tests (tests/passes_*_test.cc): on graph::Graph,
// operands, nodes and the ops left reaching the outputs after a pass; on the
// device under test, the ops a compiled graph runs.
#pragma once

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "api/impl.h"
#include "cross_device.h"
#include "graph/graph.h"
#include "ops/schema.h"
#include "test_util.h"

namespace webnn::test {

using Strings = std::vector<std::string>;

inline core::OperandDesc StaticDesc(core::DataType type, const std::vector<uint32_t>& shape) {
  core::OperandDesc desc{type, {}};
  for (uint32_t d : shape) desc.shape.push_back(core::Dim::Static(d));
  return desc;
}

// A node of `op` (validated and shape-inferred as the builder does); its first output.
inline graph::OperandId PassNode(graph::Graph& g, ops::OpKind op, std::vector<graph::OperandId> inputs,
                                 std::shared_ptr<const ops::OpAttrs> attrs = std::make_shared<ops::NoAttrs>()) {
  return g.AddNode(op, "", std::move(inputs), std::move(attrs), ops::SchemaLimits(op))[0];
}

// A float32 scalar host constant.
inline graph::OperandId ScalarF32(graph::Graph& g, float v) {
  std::vector<std::byte> bytes(sizeof(float));
  std::memcpy(bytes.data(), &v, sizeof(float));
  return g.AddHostConstant(StaticDesc(core::DataType::kFloat32, {}), std::move(bytes));
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

// CheckAgainstReference on the device under test, graph passes on or off
// (then " (passes off)" ends `what`).
inline void CheckWithPasses(const std::string& what, bool passes, const std::vector<InputSpec>& specs,
                            const GraphBody& body, Tolerance tolerance, uint64_t seed) {
  MLContextOptions options{.device = DeviceUnderTest(), .graphPasses = passes};
  CheckAgainstReference(options, what + (passes ? "" : " (passes off)"), specs, body, tolerance, seed);
}

// The ops of the program `body` compiles to on a context made from `options`
// (the cpu device's where that device refuses the graph), sorted. Inputs are
// named in0, in1, ... as CheckAgainstReference names them; a spec marked
// `constant` becomes a constant with random data.
inline std::vector<std::string> CompiledOps(const MLContextOptions& options, const std::string& what,
                                            const std::vector<InputSpec>& specs, const GraphBody& body) {
  return BuildOrFallBackToCpu(options, what, [&](const MLContextOptions& o) {
    MLContext ctx = ML::createContext(o);
    MLGraphBuilder builder(ctx);
    std::mt19937_64 rng(1);
    std::vector<MLOperand> in;
    for (size_t i = 0; i < specs.size(); ++i) {
      MLOperandDescriptor desc{specs[i].type, {}};
      for (uint32_t d : specs[i].shape) desc.shape.emplace_back(d);
      in.push_back(specs[i].constant ? builder.constant(desc, MLBufferSource(RandomTensorData(specs[i], rng)))
                                     : builder.input("in" + std::to_string(i), desc));
    }
    MLGraph graph = builder.build(body(builder, in));
    std::vector<std::string> ops;
    for (uint32_t n : graph.impl()->nodes) ops.emplace_back(ops::OpName(graph.impl()->ir->nodes()[n].op));
    std::sort(ops.begin(), ops.end());
    return ops;
  });
}

}  // namespace webnn::test
