// Graph compilation for a device (moved from api/graph.cc's CompileGraph) and
// the binding of a dispatch.
#include "graph/compile.h"

#include <new>

#include "core/strings.h"
#include "graph/lower.h"
#include "graph/passes.h"
#include "webnn/webnn.h"

namespace webnn::graph {

using core::StrCat;

void CompileGraph(CompiledGraph& g, const std::shared_ptr<ops::Device>& device_ptr,
                  const std::shared_ptr<memory::Ledger>& ledger, const CompileOptions& options,
                  std::shared_ptr<const Graph> ir, const std::map<std::string, OperandId>& outputs) {
  g.outputs = outputs;
  g.built_nodes = ir->nodes().size();
  // The reference device runs the graph exactly as built: it is the oracle.
  const ops::DeviceFusions fusions = device_ptr->Fusions();
  if (options.graph_passes && fusions.any()) {
    auto optimized = std::make_shared<Graph>(*ir);
    optimized->set_constant_ledger(ledger);
    g.pass_stats = RunPasses(*optimized, outputs, {.nhwc_layout = options.nhwc_layout,
                                                   .int8_matmul_activations = options.int8_matmul_activations,
                                                   .fusions = fusions});
    ir = std::move(optimized);
  }
  LoweredGraph lowered = Lower(*ir, outputs);
  g.nodes = lowered.nodes;
  g.value_of_operand = lowered.value_of_operand;

  ops::Device& device = *device_ptr;
  const ops::Program& program = lowered.program;
  scheduler::Placement placement =
      scheduler::PlaceProgram(program, device_ptr, scheduler::FallbackDevices(device), options.strict_placement);
  // The devices reading each value.
  const size_t devices = placement.devices.size();
  std::vector<std::vector<bool>> read_on(program.values.size(), std::vector<bool>(devices, false));
  for (size_t s = 0; s < program.steps.size(); ++s)
    for (int32_t v : program.steps[s].inputs)
      if (v >= 0) read_on[v][placement.step_device[s]] = true;
  std::vector<std::vector<std::shared_ptr<ops::DeviceBuffer>>> constants(
      devices, std::vector<std::shared_ptr<ops::DeviceBuffer>>(program.values.size()));
  for (size_t v = 0; v < program.values.size(); ++v) {
    const Operand& o = ir->operand(lowered.operand_of_value[v]);
    if (o.kind == Operand::Kind::kInput) g.inputs[o.name] = lowered.operand_of_value[v];
    if (o.kind != Operand::Kind::kConstant) continue;
    if (!o.constant->host && !o.constant->tensor_buffer)
      g.weightless[o.constant->weightless_label] = {static_cast<int32_t>(v)};
    for (size_t d = 0; d < devices; ++d) {
      if (!read_on[v][d]) continue;
      ops::Device& on = *placement.devices[d];
      if (o.constant->host) {
        constants[d][v] = on.ConstantBuffer(o.constant->host, ledger);
        continue;
      }
      // A constant tensor or a weightless constant is bound on the context's
      // device: a device with other memory would need its own copy.
      if (!scheduler::SameMemory(on, device))
        throw NotSupportedError(StrCat("build: ", o.constant->tensor_buffer ? "a constant tensor" : "weightless constant '",
                                       o.constant->weightless_label, o.constant->tensor_buffer ? "" : "'",
                                       " is read by a node placed on the ", on.name(), " device, whose memory is not the ",
                                       device.name(), " device's; that is not supported yet"));
      if (o.constant->tensor_buffer) constants[d][v] = o.constant->tensor_buffer;
    }
  }
  try {
    g.executable = std::make_shared<scheduler::Executable>(std::move(placement), std::move(lowered.program),
                                                           std::move(constants), ledger);
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
    const Operand& o = ir->operand(lowered.operand_of_value[v]);
    if (o.kind != Operand::Kind::kConstant || !o.constant->host) continue;
    if (!device.SharesConstantBytes() || g.executable->constant_released(v)) {
      o.constant->host.reset();
      o.constant->released = true;
    }
  }
  g.ir = std::move(ir);
}

scheduler::RunBinding BindRun(const CompiledGraph& g,
                              const std::map<std::string, std::shared_ptr<ops::DeviceBuffer>>& inputs,
                              const std::map<std::string, std::shared_ptr<ops::DeviceBuffer>>& outputs,
                              const std::vector<std::vector<uint32_t>>& operand_shapes) {
  auto shape_of = [&](OperandId id) {
    return operand_shapes.empty() ? core::Sizes(g.ir->operand(id).desc.shape) : operand_shapes[id];
  };
  const ops::Program& program = g.executable->program();
  scheduler::RunBinding run;
  run.external.assign(program.values.size(), nullptr);
  run.shapes.resize(program.values.size());
  for (size_t op = 0; op < g.value_of_operand.size(); ++op)
    if (g.value_of_operand[op] >= 0) run.shapes[g.value_of_operand[op]] = shape_of(static_cast<OperandId>(op));
  for (const auto& [name, buffer] : inputs) run.external[g.value_of_operand[g.inputs.at(name)]] = buffer;
  // One operand may be several outputs: compute into the first, copy to the rest.
  for (const auto& [name, buffer] : outputs) {
    const int32_t v = g.value_of_operand[g.outputs.at(name)];
    if (run.external[v] == nullptr) run.external[v] = buffer;
    else run.copies.emplace_back(run.external[v], buffer);
  }
  return run;
}

}  // namespace webnn::graph
