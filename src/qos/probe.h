// One-op (or few-op) graphs built through the public API and timed from their
// profiled steps: what calibration (calibrate.h) and kernel tuning (tune.h)
// measure. Graph inputs get data at dispatch: floats in [0.5, 1.5) (no NaN
// from log/sqrt/pow, no subnormals to slow anything down), integers 0 (valid
// indices for every gather and scatter), so the kernels take their common
// paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ops/device.h"
#include "webnn/webnn.h"

namespace webnn::qos {

class ProbeGraph {
 public:
  using Dims = std::vector<uint32_t>;
  explicit ProbeGraph(const MLContext& context) : builder_(context) {}
  MLGraphBuilder& b() { return builder_; }
  MLOperand Input(const Dims& shape, MLOperandDataType type = MLOperandDataType::kFloat32);
  MLOperand Const(const Dims& shape, MLOperandDataType type = MLOperandDataType::kFloat32);
  // Bytes of an operand of `shape`: the float pattern above, zeros otherwise.
  static std::vector<std::byte> Data(MLOperandDataType type, const Dims& shape);

 private:
  MLGraphBuilder builder_;
  size_t inputs_ = 0;
};

// Tensors for `graph`'s inputs (filled with ProbeGraph::Data) and outputs, at
// their largest shapes.
void MakeProbeTensors(MLContext& context, const MLGraph& graph, MLNamedTensors& inputs, MLNamedTensors& outputs);

// Which steps of the compiled program a probe times: their work (in the
// caller's unit), or nullopt for a step it leaves out.
using StepMatch = std::function<std::optional<double>(const ops::Program& program, const ops::ProgramStep& step,
                                                      const std::vector<std::vector<uint32_t>>& shapes)>;

// A probe graph built on the context, with its tensors; Run() dispatches it
// profiled and returns the summed times of the matched steps.
class ProbeRun {
 public:
  // With `share`, the graph reads and writes `share`'s tensors (same inputs
  // and output shapes): candidates of one layer timed interleaved then find
  // the input in cache, as a network's layer finds what the previous one
  // wrote, instead of each streaming its own copy.
  ProbeRun(MLContext& context, ProbeGraph& g, const MLOperand& out, const StepMatch& match,
           const ProbeRun* share = nullptr);
  ~ProbeRun();
  ProbeRun(const ProbeRun&) = delete;
  ProbeRun& operator=(const ProbeRun&) = delete;
  // Milliseconds of the matched steps in one dispatch.
  double Run();
  // The whole dispatch, by wall clock.
  void Dispatch();
  bool found() const { return !steps_.empty() && work_ > 0; }
  double work() const { return work_; }

 private:
  MLContext& context_;
  MLGraph graph_;
  MLNamedTensors inputs_, outputs_;
  std::vector<size_t> steps_;
  double work_ = 0;
};

}  // namespace webnn::qos
