#include "ops/cpu/kernel_registry.h"

#include <mutex>

namespace webnn::ops::cpu {

#define WEBNN_OP(name, Family) void Register##Family##Kernels(OpKind op, KernelRegistry& registry);
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) void Register##Family##Kernels(OpKind op, KernelRegistry& registry);
#include "ops/internal_op_list.inc"

namespace {
DataTypeSet SlotTypes(const std::vector<DataTypeSet>& sets, const std::vector<SlotLimits>& schema, size_t slot) {
  const size_t s = std::min(slot, schema.size() - 1);  // variadic slots repeat the last one
  const DataTypeSet allowed = schema[s].types;
  return s < sets.size() ? (sets[s] & allowed) : allowed;
}
}  // namespace

void KernelRegistry::Add(CpuKernel kernel) { kernels_[static_cast<int>(kernel.op)].push_back(std::move(kernel)); }

const CpuKernel* KernelRegistry::Find(OpKind op, std::span<const std::optional<DataType>> inputs,
                                      std::span<const DataType> outputs) const {
  const OpLimits& schema = SchemaLimits(op);
  for (const CpuKernel& k : kernels_[static_cast<int>(op)]) {
    bool ok = true;
    for (size_t i = 0; ok && i < inputs.size(); ++i)
      if (inputs[i]) ok = SlotTypes(k.inputs, schema.inputs, i).Contains(*inputs[i]);
    for (size_t i = 0; ok && i < outputs.size(); ++i) ok = SlotTypes(k.outputs, schema.outputs, i).Contains(outputs[i]);
    if (ok) return &k;
  }
  return nullptr;
}

DataTypeSet KernelRegistry::SupportedTypes(OpKind op, bool is_output, size_t slot) const {
  const OpLimits& schema = SchemaLimits(op);
  DataTypeSet result;
  for (const CpuKernel& k : kernels_[static_cast<int>(op)])
    result = result | (is_output ? SlotTypes(k.outputs, schema.outputs, slot) : SlotTypes(k.inputs, schema.inputs, slot));
  return result;
}

const KernelRegistry& Registry() {
  static std::once_flag once;
  static KernelRegistry registry;
  std::call_once(once, [] {
#define WEBNN_OP(name, Family) Register##Family##Kernels(OpKind::name, registry);
#include "ops/op_list.inc"
#define WEBNN_INTERNAL_OP(name, Family) Register##Family##Kernels(OpKind::name, registry);
#include "ops/internal_op_list.inc"
  });
  return registry;
}

}  // namespace webnn::ops::cpu
