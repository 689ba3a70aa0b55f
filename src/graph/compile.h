// A graph compiled for one device: the graph passes the device wants, the
// lowering to a program, the constants handed to the device, and the
// scheduler's Executable; and the binding of one dispatch's tensors to the
// program's values. The api validates and records; this is what it delegates
// to.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/passes.h"
#include "memory/ledger.h"
#include "ops/device.h"
#include "scheduler/executable.h"
#include "scheduler/placement.h"
#include "scheduler/run.h"

namespace webnn::graph {

struct CompileOptions {
  bool graph_passes = true;  // MLContextOptions::graphPasses
  bool nhwc_layout = false;  // MLContextOptions::nhwcLayout
  bool int8_matmul_activations = false;  // MLContextOptions::int8MatmulActivations
  // MLGraphOptions::strictPlacement: a node the device does not run is a
  // NotSupportedError, not a node on a fallback device.
  bool strict_placement = false;
};

struct CompiledGraph {
  std::shared_ptr<const Graph> ir;      // the builder's graph (after the device's passes), frozen
  std::vector<uint32_t> nodes;          // nodes reaching the outputs, in order
  std::map<std::string, OperandId> inputs;   // every graph input used
  std::map<std::string, OperandId> outputs;
  std::vector<int32_t> value_of_operand;     // operand id -> program value id (-1: unused)
  // Shared with the dispatches in flight: destroying the graph drops this
  // reference, the last dispatch the last one.
  std::shared_ptr<scheduler::Executable> executable;
  // Weightless constants by label, and where each is in its binding.
  enum class Binding { kUnbound, kWriting, kBound };
  struct Weightless {
    int32_t value;  // program value id
    Binding binding = Binding::kUnbound;
  };
  std::map<std::string, Weightless> weightless;
  // For the build's log: the builder's node count, and what the graph
  // passes did (nullopt when they did not run).
  size_t built_nodes = 0;
  std::optional<PassStats> pass_stats;
};

// Fills `g`: passes, lowering, placement (steps `device` does not run go to a
// fallback device, scheduler::PlaceProgram), constants on each device that
// reads them, Executable. Errors are the spec's (NotSupportedError for a step
// no device runs, QuotaExceededError for memory, OperationError for a failed
// compilation).
void CompileGraph(CompiledGraph& g, const std::shared_ptr<ops::Device>& device,
                  const std::shared_ptr<memory::Ledger>& ledger, const CompileOptions& options,
                  std::shared_ptr<const Graph> ir, const std::map<std::string, OperandId>& outputs);

// One dispatch's tensors bound to the program's values. `operand_shapes`:
// the concrete shape of every operand (dynamic graphs), or empty for the
// static shapes.
scheduler::RunBinding BindRun(const CompiledGraph& g,
                              const std::map<std::string, std::shared_ptr<ops::DeviceBuffer>>& inputs,
                              const std::map<std::string, std::shared_ptr<ops::DeviceBuffer>>& outputs,
                              const std::vector<std::vector<uint32_t>>& operand_shapes);

}  // namespace webnn::graph
