// Graph compilation: passes, lowering to a device program, constants and
// the Executable. Moved verbatim from src/api/graph.cc.
#include <new>

#include "api/impl.h"
#include "core/strings.h"
#include "graph/lower.h"
#include "graph/passes.h"
#include "webnn/webnn.h"

namespace webnn {

using core::StrCat;
using internal::ContextImpl;
using internal::GraphImpl;

namespace internal {

std::shared_ptr<GraphImpl> CompileGraph(const std::shared_ptr<ContextImpl>& context,
                                        std::shared_ptr<const graph::Graph> ir,
                                        const std::map<std::string, graph::OperandId>& outputs) {
  auto g = std::make_shared<GraphImpl>();
  g->context = context;
  g->outputs = outputs;
  // The reference device runs the graph exactly as built: it is the oracle.
  const ops::DeviceFusions fusions = context->device().Fusions();
  if (context->options().graphPasses && fusions.any()) {
    auto optimized = std::make_shared<graph::Graph>(*ir);
    optimized->set_constant_ledger(context->ledger());
    graph::RunPasses(*optimized, outputs, {.nhwc_layout = context->options().nhwcLayout, .fusions = fusions});
    ir = std::move(optimized);
  }
  graph::LoweredGraph lowered = graph::Lower(*ir, outputs);
  g->nodes = lowered.nodes;
  g->value_of_operand = lowered.value_of_operand;

  ops::Device& device = context->device();
  std::vector<std::shared_ptr<ops::DeviceBuffer>> constants(lowered.program.values.size());
  for (size_t v = 0; v < lowered.program.values.size(); ++v) {
    const graph::Operand& o = ir->operand(lowered.operand_of_value[v]);
    if (o.kind == graph::Operand::Kind::kInput) g->inputs[o.name] = lowered.operand_of_value[v];
    if (o.kind != graph::Operand::Kind::kConstant) continue;
    if (o.constant->host) {
      constants[v] = device.ConstantBuffer(o.constant->host, context->ledger());
    } else if (o.constant->tensor_buffer) {
      constants[v] = o.constant->tensor_buffer;
    } else {
      g->weightless[o.constant->weightless_label] = static_cast<int32_t>(v);
      g->weightless_bound[o.constant->weightless_label] = false;
    }
  }
  try {
    g->executable = std::make_unique<scheduler::Executable>(context->device_ptr(), std::move(lowered.program),
                                                            std::move(constants), context->ledger());
  } catch (const MLException&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw QuotaExceededError("build: out of memory compiling the graph (packing weights, planning memory)");
  } catch (const std::exception& e) {
    throw OperationError(StrCat("build: compilation failed: ", e.what()));
  }
  // The graph's own references to constant bytes go once the device holds
  // what it runs from: a packed copy (cpu), or its own upload (gpu). This
  // drops the last reference to a packed weight (the builder's graph shares
  // the same ConstantData), so its memory, or its pages of a mapped weights
  // file, leave the process. Nothing reads constants from the IR after build.
  for (size_t v = 0; v < lowered.operand_of_value.size(); ++v) {  // (lowered.program was moved)
    const graph::Operand& o = ir->operand(lowered.operand_of_value[v]);
    if (o.kind != graph::Operand::Kind::kConstant || !o.constant->host) continue;
    if (!device.SharesConstantBytes() || g->executable->constant_released(v)) {
      o.constant->host.reset();
      o.constant->released = true;
    }
  }
  g->ir = std::move(ir);
  return g;
}

}  // namespace internal

}  // namespace webnn
