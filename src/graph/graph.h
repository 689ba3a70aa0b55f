// The graph IR: operands (inputs, constants, node outputs) and nodes in
// creation order, which is a topological order. Nodes are validated and their
// outputs inferred as they are added; the same inference runs again at dispatch
// when the graph has dynamic dimensions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/shape.h"
#include "core/symbols.h"
#include "memory/constant_bytes.h"
#include "memory/ledger.h"
#include "ops/device.h"
#include "ops/op_kind.h"
#include "ops/schema.h"

namespace webnn::graph {

using core::OperandDesc;
using OperandId = uint32_t;
inline constexpr OperandId kNoOperand = UINT32_MAX;

// Where a constant's bytes come from.
struct ConstantData {
  // constant(desc, buffer) and scalars (owned copies), or views of a mapped
  // weights file (io::WeightStore). Reset after build once the device holds
  // what it needs (`released`): a packed copy, or its own upload.
  std::shared_ptr<const memory::ConstantBytes> host;
  std::shared_ptr<ops::DeviceBuffer> tensor_buffer;     // constant(MLTensor), on the context's device
  std::string weightless_label;                         // bound after build (DAOP / webnn#901)
  // The host bytes were dropped after compilation: neither a weightless
  // constant nor readable (nothing reads constants after build).
  bool released = false;
};

struct Operand {
  enum class Kind { kInput, kConstant, kIntermediate };
  Kind kind = Kind::kIntermediate;
  OperandDesc desc;
  std::string name;          // inputs: the input name
  int32_t producer = -1;     // intermediates: index of the producing node
  uint32_t producer_output = 0;
  std::shared_ptr<ConstantData> constant;
};

struct Node {
  ops::OpKind op;
  std::string label;
  std::shared_ptr<const ops::OpAttrs> attrs;
  std::vector<OperandId> inputs;  // schema order; kNoOperand for an absent optional operand
  std::vector<OperandId> outputs;
};

class Graph {
 public:
  // Adds a graph input; `desc` is already validated (dims, byte length).
  OperandId AddInput(const std::string& name, const OperandDesc& desc);
  OperandId AddConstant(const OperandDesc& desc, std::shared_ptr<ConstantData> data);

  // Validates `inputs` against `limits` (data types, ranks; TypeError), runs the
  // op's shape inference and appends the node. Returns its output operands. On
  // any error the graph is left unchanged.
  std::vector<OperandId> AddNode(ops::OpKind op, const std::string& label, std::vector<OperandId> inputs,
                                 std::shared_ptr<const ops::OpAttrs> attrs, const ops::OpLimits& limits);

  const Operand& operand(OperandId id) const { return operands_.at(id); }
  Operand& mutable_operand(OperandId id) { return operands_.at(id); }
  const std::vector<Operand>& operands() const { return operands_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const core::SymbolTable& symbols() const { return symbols_; }
  core::SymbolTable& mutable_symbols() { return symbols_; }
  std::optional<OperandId> FindInput(const std::string& name) const;

  // Nodes needed to compute `outputs`, in topological order (a node's inputs
  // are produced before it; nodes added by passes may appear anywhere).
  std::vector<uint32_t> NodesReaching(const std::vector<OperandId>& outputs) const;

  // ---- Rewriting, for graph passes (src/graph/passes.h) ----------------------
  // Appends a node whose outputs are new operands with the given descriptors
  // (no validation: passes build only what they know is valid).
  std::vector<OperandId> AppendNode(ops::OpKind op, const std::string& label, std::vector<OperandId> inputs,
                                    std::shared_ptr<const ops::OpAttrs> attrs, std::vector<OperandDesc> outputs);
  // Adds a constant operand with host data.
  OperandId AddHostConstant(const OperandDesc& desc, std::vector<std::byte> bytes);
  OperandId AddHostConstant(const OperandDesc& desc, std::shared_ptr<const memory::ConstantBytes> bytes);
  // Where AddHostConstant charges the constants it makes (the context's
  // ledger, as constants (raw)); null: the process ledger.
  void set_constant_ledger(std::shared_ptr<memory::Ledger> ledger) { constant_ledger_ = std::move(ledger); }
  // Makes every node that reads `from` read `to` instead.
  void ReplaceUses(OperandId from, OperandId to);
  // Replaces a node's attributes / inputs.
  void SetNodeAttrs(uint32_t node, std::shared_ptr<const ops::OpAttrs> attrs) { nodes_.at(node).attrs = std::move(attrs); }
  // `slot` may be one past the node's last input: the input is appended (an
  // operand only a pass adds, e.g. matmul's fused bias).
  void SetNodeInput(uint32_t node, size_t slot, OperandId id);
  // Makes `node` produce `operand` as its output `index` (the operand's old
  // producer, if any, no longer does).
  void SetNodeOutput(uint32_t node, size_t index, OperandId operand);
  // Makes an unreachable node read and produce nothing (it stays in the list,
  // so node indices do not change).
  void DetachNode(uint32_t node) {
    nodes_.at(node).inputs.clear();
    nodes_.at(node).outputs.clear();
  }
  // Nodes reading each operand (index: operand id).
  std::vector<std::vector<uint32_t>> Consumers() const;

  // The dispatch-time shape pass: binds every named dynamic dimension from the
  // concrete `input_shapes` (by input name) and re-runs shape inference over
  // `nodes`. Returns concrete shapes for every operand id (empty for operands
  // not reached). Throws TypeError naming the input or node that fails.
  std::vector<std::vector<uint32_t>> InferConcreteShapes(
      const std::map<std::string, std::vector<uint32_t>>& input_shapes, const std::vector<uint32_t>& nodes) const;

  bool HasDynamicDimensions() const { return symbols_.size() > 1; }

 private:
  std::vector<Operand> operands_;
  std::vector<Node> nodes_;
  core::SymbolTable symbols_;
  std::shared_ptr<memory::Ledger> constant_ledger_;
  // Input name -> operand: input() looks every new name up, and a scan of the
  // operands made declaring 100,000 inputs take 14 s.
  std::unordered_map<std::string, OperandId> input_ids_;
};

}  // namespace webnn::graph
