// Helpers for Google Benchmark suites: build a graph once on a device, then time
// dispatch() and finish() (dispatch only queues the run; finish waits for it,
// so the pair's wall time is the work).
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace webnn::bench {

struct BenchInput {
  MLOperandDataType type = MLOperandDataType::kFloat32;
  std::vector<uint32_t> shape;
  bool constant = false;  // weights: builder.constant (prepared/packed at build)
};

using GraphBody = std::function<MLNamedOperands(MLGraphBuilder&, const std::vector<MLOperand>&)>;

class BenchGraph {
 public:
  BenchGraph(MLDeviceType device, uint32_t threads, const std::vector<BenchInput>& inputs, const GraphBody& body);
  // The same on a context made from `options` (e.g. graphPasses off).
  BenchGraph(const MLContextOptions& options, const std::vector<BenchInput>& inputs, const GraphBody& body);
  // A model: a webnn-graph JSON file and its weights (io::LoadGraphFile; the
  // files scripts/models.sh converts), its inputs filled as above.
  BenchGraph(const MLContextOptions& options, const std::string& model_path);
  void Dispatch() {
    context_.dispatch(graph_, inputs_, outputs_);
    context_.finish();
  }
  // One profiled dispatch (MLDispatchOptions::profile): the steps' summed
  // time on the device, without the submission and wait around them (NaN
  // where the device cannot time its steps).
  double DeviceMs() {
    MLDispatchOptions options;
    options.profile = true;
    context_.dispatch(graph_, inputs_, outputs_, options);
    context_.finish();
    double ms = 0;
    for (const MLStepProfile& s : graph_.profile().steps) ms += s.ms;
    return ms;
  }

 private:
  MLContext context_;
  MLGraph graph_;
  MLNamedTensors inputs_, outputs_;
};

// Sets rate counters on `state` from per-iteration amounts; Google Benchmark
// prints them per second ("GFLOP=12.3/s", "GB=45.6/s").
void SetRates(benchmark::State& state, double flops_per_iteration, double bytes_per_iteration);

// conv2d(in[0], filter in[1], bias in[2]) with symmetric padding `pad`, equal
// strides and `groups`: the conv layers of the peer tables (peers::ConvCase).
MLOperand ConvLayer(MLGraphBuilder& b, const std::vector<MLOperand>& in, uint32_t pad, uint32_t stride,
                    uint32_t groups, bool nhwc = false);

// Threads for a benchmark: the `threads` argument if given, else all cores.
uint32_t ThreadsArg(const benchmark::State& state, int index);

}  // namespace webnn::bench
