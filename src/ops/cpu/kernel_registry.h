// Kernels of the cpu device, registered per (op, data-type signature). Each
// family in src/ops/op_list.inc has src/ops/cpu/<family>.cc defining
//   void Register<Family>Kernels(OpKind op, KernelRegistry& registry);
// which adds the kernels of `op` (likewise for the internal ops of
// src/ops/internal_op_list.inc, which graph passes create). opSupportLimits()
// of a cpu context is derived from what is registered here, so it cannot
// promise what does not run.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "memory/workspace.h"
#include "ops/kernel.h"
#include "ops/op_kind.h"
#include "ops/schema.h"

namespace webnn::ops::cpu {

// What a kernel's prepare function sees when the graph is compiled: every
// operand's type and (maximum) shape; `data` is set only for constants.
struct PrepareContext {
  OpKind op;
  const OpAttrs& attrs;
  std::span<const TensorView> inputs;
  std::span<const TensorView> outputs;
  // The prepare function adds the bytes of what it returns (packed weights,
  // tables): they are accounted as constants (packed).
  mutable uint64_t prepared_bytes = 0;
  // Set by the prepare function: bit i when what it returns holds a packed
  // copy of constant input i and the kernel's run never reads that input's
  // data (it may then be null). The device releases a constant's bytes once
  // every step reading it has packed it.
  mutable uint32_t packed_inputs = 0;
  // Every operand's shape is static: the step runs at exactly these shapes
  // (else they are upper bounds, and a run may take another path).
  bool static_shapes = true;
  // The scratch the kernel takes while it runs (memory::Scratch), for these
  // shapes (and, unless static_shapes, every smaller one): the program's
  // workspace holds the largest step's.
  mutable memory::WorkspaceSize workspace;
};
// Returns what the kernel receives as KernelContext::prepared (packed weights,
// tables), or null. Runs once per compiled step, never per dispatch.
using PrepareFn = std::shared_ptr<const void> (*)(const PrepareContext& ctx);

struct CpuKernel {
  OpKind op;
  KernelFn run = nullptr;
  PrepareFn prepare = nullptr;
  // Data types handled, per schema slot. A missing entry (shorter vector)
  // means "every type the schema allows" for that slot; absent optional
  // operands always match.
  std::vector<DataTypeSet> inputs;
  std::vector<DataTypeSet> outputs;
};

class KernelRegistry {
 public:
  void Add(CpuKernel kernel);
  // The first registered kernel of `op` that handles these types
  // (nullopt entries: absent optional operands); null if none.
  const CpuKernel* Find(OpKind op, std::span<const std::optional<DataType>> inputs,
                        std::span<const DataType> outputs) const;
  // Union over the kernels of `op`, intersected with the schema's allowed types.
  DataTypeSet SupportedTypes(OpKind op, bool is_output, size_t slot) const;

 private:
  std::vector<std::vector<CpuKernel>> kernels_ = std::vector<std::vector<CpuKernel>>(kOpKindCount);
};

// Every cpu kernel, registered once on first use.
const KernelRegistry& Registry();

}  // namespace webnn::ops::cpu
