#include "graph/graph.h"

#include <algorithm>
#include <set>

#include "core/strings.h"
#include "memory/host_memory.h"

namespace webnn::graph {

OperandId Graph::AddInput(const std::string& name, const OperandDesc& desc) {
  Operand op;
  op.kind = Operand::Kind::kInput;
  op.desc = desc;
  op.name = name;
  operands_.push_back(std::move(op));
  const auto id = static_cast<OperandId>(operands_.size() - 1);
  input_ids_.emplace(name, id);
  return id;
}

OperandId Graph::AddConstant(const OperandDesc& desc, std::shared_ptr<ConstantData> data) {
  Operand op;
  op.kind = Operand::Kind::kConstant;
  op.desc = desc;
  op.constant = std::move(data);
  operands_.push_back(std::move(op));
  return static_cast<OperandId>(operands_.size() - 1);
}

std::optional<OperandId> Graph::FindInput(const std::string& name) const {
  auto it = input_ids_.find(name);
  // Passes may rewrite operands through mutable_operand(): trust the operand.
  if (it == input_ids_.end() || operands_[it->second].kind != Operand::Kind::kInput ||
      operands_[it->second].name != name)
    return std::nullopt;
  return it->second;
}

namespace {

// The generic part of validation: every present operand's data type and rank
// must be within the context's limits for its slot, and "same type as" slots
// must match.
void CheckAgainstLimits(const ops::InferContext& ctx, const ops::OpSchema& schema, const ops::OpLimits& limits,
                        const std::vector<const OperandDesc*>& descs) {
  // Map operand positions to schema slots: a variadic slot (concat inputs)
  // absorbs every operand.
  for (size_t i = 0; i < descs.size(); ++i) {
    const size_t slot = std::min(i, schema.inputs.size() - 1);
    const ops::TensorSlot& s = schema.inputs[slot];
    const OperandDesc* d = descs[i];
    if (d == nullptr) {
      if (!s.optional) ctx.Fail("argument '", s.name, "' is required");
      continue;
    }
    const ops::SlotLimits& lim = limits.inputs[slot];
    if (!lim.types.Contains(d->type))
      ctx.Fail("argument '", s.name, "' data type ", ToString(d->type), " is not supported; allowed: ",
               lim.types.ToString());
    if (s.same_as >= 0 && descs[s.same_as] != nullptr && descs[s.same_as]->type != d->type)
      ctx.Fail("argument '", s.name, "' data type ", ToString(d->type), " must match '",
               schema.inputs[s.same_as].name, "' (", ToString(descs[s.same_as]->type), ")");
    if (!lim.ranks.Contains(d->rank())) {
      if (lim.ranks.min == lim.ranks.max)
        ctx.Fail("argument '", s.name, "' must have rank ", lim.ranks.min, ", got ", d->rank());
      ctx.Fail("argument '", s.name, "' must have rank in [", lim.ranks.min, ", ", lim.ranks.max, "], got ",
               d->rank());
    }
  }
}

void CheckOutputsAgainstLimits(const ops::InferContext& ctx, const ops::OpSchema& schema,
                               const ops::OpLimits& limits, const std::vector<OperandDesc>& outs) {
  for (size_t i = 0; i < outs.size(); ++i) {
    const size_t slot = std::min(i, schema.outputs.size() - 1);
    const auto& name = schema.outputs[slot].name;
    if (!limits.outputs[slot].types.Contains(outs[i].type))
      ctx.Fail("output '", name, "' data type ", ToString(outs[i].type), " is not supported; allowed: ",
               limits.outputs[slot].types.ToString());
    if (!limits.outputs[slot].ranks.Contains(outs[i].rank()))
      ctx.Fail("output '", name, "' rank ", outs[i].rank(), " is outside the supported range [",
               limits.outputs[slot].ranks.min, ", ", limits.outputs[slot].ranks.max, "]");
    ctx.CheckOutput(outs[i], core::StrCat("output '", name, "'"));
  }
}

}  // namespace

std::vector<OperandId> Graph::AddNode(ops::OpKind op, const std::string& label, std::vector<OperandId> inputs,
                                      std::shared_ptr<const ops::OpAttrs> attrs, const ops::OpLimits& limits) {
  const ops::OpSchema& schema = ops::GetSchema(op);
  // Shape inference may add derived symbols; undo them if the node is rejected.
  const core::SymbolTable saved_symbols = symbols_;
  ops::InferContext ctx(op, label, &symbols_);
  // One operand per schema slot, which shape inference reads by position:
  // the builder passes kNoOperand for an absent option; other callers (passes,
  // tests) may leave trailing options out, and they are filled in here. A
  // variadic slot takes any number; the op's inference says how many it
  // accepts (concat: 1 to 8192).
  if (!schema.inputs.empty() && schema.inputs.back().variadic) {
    if (inputs.size() + 1 < schema.inputs.size())
      ctx.Fail("takes at least ", schema.inputs.size() - 1, " operands, got ", inputs.size());
  } else {
    size_t required = schema.inputs.size();
    while (required > 0 && schema.inputs[required - 1].optional) --required;
    if (inputs.size() < required || inputs.size() > schema.inputs.size())
      ctx.Fail("takes ", required, required == schema.inputs.size() ? "" : core::StrCat(" to ", schema.inputs.size()),
               " operands, got ", inputs.size());
    inputs.resize(schema.inputs.size(), kNoOperand);
  }
  std::vector<const OperandDesc*> descs;
  descs.reserve(inputs.size());
  for (OperandId id : inputs) descs.push_back(id == kNoOperand ? nullptr : &operands_.at(id).desc);
  std::vector<OperandDesc> outs;
  try {
    CheckAgainstLimits(ctx, schema, limits, descs);
    outs = schema.infer(ctx, *attrs, descs);
    CheckOutputsAgainstLimits(ctx, schema, limits, outs);
  } catch (...) {
    symbols_ = saved_symbols;
    throw;
  }
  return AppendNode(op, label, std::move(inputs), std::move(attrs), std::move(outs));
}

std::vector<uint32_t> Graph::NodesReaching(const std::vector<OperandId>& outputs) const {
  // Iterative depth-first post-order from the outputs: producers first.
  enum class Mark : uint8_t { kNone, kOpen, kDone };
  std::vector<Mark> mark(nodes_.size(), Mark::kNone);
  std::vector<uint32_t> order;
  std::vector<std::pair<uint32_t, size_t>> stack;  // (node, next input to visit)
  for (OperandId out : outputs) {
    const int32_t root = operands_.at(out).producer;
    if (root < 0 || mark[root] != Mark::kNone) continue;
    stack.emplace_back(static_cast<uint32_t>(root), 0);
    mark[root] = Mark::kOpen;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const auto& inputs = nodes_[node].inputs;
      if (next < inputs.size()) {
        const OperandId in = inputs[next++];
        if (in == kNoOperand) continue;
        const int32_t p = operands_[in].producer;
        if (p >= 0 && mark[p] == Mark::kNone) {
          mark[p] = Mark::kOpen;
          stack.emplace_back(static_cast<uint32_t>(p), 0);
        }
        continue;
      }
      mark[node] = Mark::kDone;
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<OperandId> Graph::AppendNode(ops::OpKind op, const std::string& label, std::vector<OperandId> inputs,
                                         std::shared_ptr<const ops::OpAttrs> attrs, std::vector<OperandDesc> outputs) {
  Node node;
  node.op = op;
  node.label = label;
  node.attrs = std::move(attrs);
  node.inputs = std::move(inputs);
  const int32_t index = static_cast<int32_t>(nodes_.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    Operand o;
    o.kind = Operand::Kind::kIntermediate;
    o.desc = std::move(outputs[i]);
    o.producer = index;
    o.producer_output = static_cast<uint32_t>(i);
    operands_.push_back(std::move(o));
    node.outputs.push_back(static_cast<OperandId>(operands_.size() - 1));
  }
  nodes_.push_back(std::move(node));
  return nodes_.back().outputs;
}

OperandId Graph::AddHostConstant(const OperandDesc& desc, std::vector<std::byte> bytes) {
  // Charged to the context's ledger as constants (raw), like the builder's.
  return AddHostConstant(desc, memory::ConstantBytes::Share(memory::CountedCopy(
                                   bytes, "folding constants", {constant_ledger_, memory::Category::kConstantsRaw})));
}

OperandId Graph::AddHostConstant(const OperandDesc& desc, std::shared_ptr<const memory::ConstantBytes> bytes) {
  auto data = std::make_shared<ConstantData>();
  data->host = std::move(bytes);
  return AddConstant(desc, std::move(data));
}

void Graph::ReplaceUses(OperandId from, OperandId to) {
  for (Node& n : nodes_)
    for (OperandId& in : n.inputs)
      if (in == from) in = to;
}

void Graph::SetNodeInput(uint32_t node, size_t slot, OperandId id) {
  std::vector<OperandId>& inputs = nodes_.at(node).inputs;
  if (slot == inputs.size()) inputs.push_back(id);
  else inputs.at(slot) = id;
}

void Graph::SetNodeOutput(uint32_t node, size_t index, OperandId operand) {
  const OperandId old = nodes_.at(node).outputs.at(index);
  operands_.at(old).producer = -1;
  nodes_[node].outputs[index] = operand;
  operands_.at(operand).producer = static_cast<int32_t>(node);
  operands_.at(operand).producer_output = static_cast<uint32_t>(index);
  operands_.at(operand).kind = Operand::Kind::kIntermediate;
}

std::vector<std::vector<uint32_t>> Graph::Consumers() const {
  std::vector<std::vector<uint32_t>> out(operands_.size());
  for (uint32_t n = 0; n < nodes_.size(); ++n)
    for (OperandId in : nodes_[n].inputs)
      if (in != kNoOperand && (out[in].empty() || out[in].back() != n)) out[in].push_back(n);
  return out;
}

std::vector<std::vector<uint32_t>> Graph::InferConcreteShapes(
    const std::map<std::string, std::vector<uint32_t>>& input_shapes, const std::vector<uint32_t>& nodes) const {
  core::SymbolTable symbols = symbols_;
  symbols.ClearValues();
  std::vector<OperandDesc> concrete(operands_.size());
  std::vector<bool> known(operands_.size(), false);

  // Bind named dimensions from the inputs; static dims must match exactly.
  for (size_t id = 0; id < operands_.size(); ++id) {
    const Operand& o = operands_[id];
    if (o.kind == Operand::Kind::kConstant) {
      concrete[id] = o.desc;
      known[id] = true;
      continue;
    }
    if (o.kind != Operand::Kind::kInput) continue;
    auto it = input_shapes.find(o.name);
    if (it == input_shapes.end()) continue;  // not used by this dispatch's nodes
    const std::vector<uint32_t>& shape = it->second;
    if (shape.size() != o.desc.shape.size())
      throw TypeError(core::StrCat("dispatch: input '", o.name, "' must have rank ", o.desc.shape.size(), ", got ",
                                   shape.size()));
    OperandDesc d{o.desc.type, {}};
    for (size_t i = 0; i < shape.size(); ++i) {
      const core::Dim& decl = o.desc.shape[i];
      if (decl.IsStatic()) {
        if (shape[i] != decl.size)
          throw TypeError(core::StrCat("dispatch: input '", o.name, "' dimension ", i, " must be ", decl.size,
                                       ", got ", shape[i]));
      } else {
        auto& sym = symbols.GetMutable(decl.symbol);
        if (shape[i] < 1 || shape[i] > sym.max_size)
          throw TypeError(core::StrCat("dispatch: input '", o.name, "' dimension ", i, " ('", sym.name,
                                       "') must be in [1, ", sym.max_size, "], got ", shape[i]));
        if (sym.value && *sym.value != shape[i])
          throw TypeError(core::StrCat("dispatch: dimension '", sym.name, "' is ", *sym.value,
                                       " in another input but ", shape[i], " in input '", o.name, "'"));
        sym.value = shape[i];
      }
      d.shape.push_back(core::Dim::Static(shape[i]));
    }
    concrete[id] = std::move(d);
    known[id] = true;
  }

  // Re-run inference node by node; dims are all static now, so the context needs
  // no symbol allocation, only the bound values for reshape/expand's names.
  const ops::OpLimits no_limits;
  for (uint32_t n : nodes) {
    const Node& node = nodes_[n];
    const ops::OpSchema& schema = ops::GetSchema(node.op);
    std::vector<const OperandDesc*> descs;
    for (OperandId id : node.inputs) {
      if (id == kNoOperand) {
        descs.push_back(nullptr);
        continue;
      }
      if (!known[id])
        throw TypeError(core::StrCat("dispatch: no shape for an input of ", ops::OpName(node.op),
                                     " (a graph input is missing)"));
      descs.push_back(&concrete[id]);
    }
    ops::InferContext ctx(node.op, node.label, &symbols);
    std::vector<OperandDesc> outs = schema.infer(ctx, *node.attrs, descs);
    for (size_t i = 0; i < outs.size(); ++i) {
      for (const core::Dim& d : outs[i].shape)
        if (!d.IsStatic())
          ctx.Fail("dimension '", symbols.Get(d.symbol).name, "' is not bound by any graph input");
      ctx.CheckOutput(outs[i], "output");
      concrete[node.outputs[i]] = std::move(outs[i]);
      known[node.outputs[i]] = true;
    }
  }

  std::vector<std::vector<uint32_t>> shapes(operands_.size());
  for (size_t id = 0; id < operands_.size(); ++id)
    if (known[id]) shapes[id] = core::Sizes(concrete[id].shape);
  return shapes;
}

}  // namespace webnn::graph
