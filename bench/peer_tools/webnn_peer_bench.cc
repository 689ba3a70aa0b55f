// Our side of the peer comparison: the single-op graphs of peer_cases.h built
// through the public API (weights as builder.constant, so they are packed at
// build like ONNX Runtime's initializers are pre-packed at session creation),
// dispatched on the cpu device at 1 and 2 threads.
//
// Names: peer/<family>/<case>/t:<threads>, e.g. peer/matmul/sq1024/t:2,
// peer_nhwc/conv/<case>/t:<threads> (the conv layers on NHWC activations) and
// peer_chain/conv/<case>/t:<threads> (the layer and its ConvCase::ChainPartner
// in one graph, NCHW in and out, in whatever layout the compiled program keeps
// between them).
// scripts/bench-peers.sh runs one name at a time, interleaved with the peers;
// the binary also runs on its own like any Google Benchmark suite.
//
//   webnn_peer_bench --peer_cases_json   prints the case list (for make_onnx_models.py)
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "bench_util.h"
#include "peer_cases.h"

namespace webnn::bench::peers {
namespace {

// Google Benchmark calls a benchmark function several times while it sizes the
// iteration count; building a 4096x4096 constant graph each time would cost
// seconds of (untimed) wall time, so the last graph is kept.
struct CachedGraph {
  std::string key;
  std::unique_ptr<BenchGraph> graph;
};

BenchGraph& GraphFor(const std::string& key, uint32_t threads, const std::vector<BenchInput>& inputs, const GraphBody& body) {
  static CachedGraph cache;
  if (cache.key != key) {
    cache.graph.reset();  // free the previous case's buffers before building the next
    cache.key.clear();
    cache.graph = std::make_unique<BenchGraph>(MLDeviceType::kCpu, threads, inputs, body);
    cache.graph->Dispatch();  // warm-up: first-touch of the output and arena pages
    cache.key = key;
  }
  return *cache.graph;
}

void RunCase(benchmark::State& state, const std::string& key, uint32_t threads, const std::vector<BenchInput>& inputs,
             const GraphBody& body, double flops, double bytes) {
  BenchGraph* g = nullptr;
  try {
    g = &GraphFor(key, threads, inputs, body);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) g->Dispatch();
  SetRates(state, flops, bytes);
}

constexpr auto kF32 = MLOperandDataType::kFloat32;

void RegisterAll() {
  for (uint32_t t : PeerThreadCounts()) {
    const std::string suffix = "/t:" + std::to_string(t);
    for (const MatmulCase& c : MatmulCases()) {
      const std::string name = std::string("peer/matmul/") + c.name + suffix;
      benchmark::RegisterBenchmark(name.c_str(), [c, t, name](benchmark::State& state) {
        RunCase(state, name, t, {{kF32, {c.m, c.k}}, {kF32, {c.k, c.n}, true}},
                [](MLGraphBuilder& b, const std::vector<MLOperand>& in) { return MLNamedOperands{{"out", b.matmul(in[0], in[1])}}; },
                c.Flops(), 4.0 * (double(c.m) * c.k + double(c.k) * c.n + double(c.m) * c.n));
      })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    }
    // peer/conv: NCHW in and out, as the ONNX models; peer_nhwc/conv: the
    // same layer with NHWC activations (inputLayout nhwc, filter ohwi), the
    // layout the compiled program keeps between convs when the layout pass
    // runs: the counterpart of oneDNN's primitive time in its chosen layout.
    for (const bool nhwc : {false, true}) {
      for (const ConvCase& c : ConvCases()) {
        const std::string name = std::string(nhwc ? "peer_nhwc/conv/" : "peer/conv/") + c.name + suffix;
        const std::vector<BenchInput> inputs =
            nhwc ? std::vector<BenchInput>{{kF32, {c.n, c.h, c.w, c.c}}, {kF32, {c.oc, c.kh, c.kw, c.c / c.groups}, true},
                                           {kF32, {c.oc}, true}}
                 : std::vector<BenchInput>{{kF32, {c.n, c.c, c.h, c.w}}, {kF32, {c.oc, c.c / c.groups, c.kh, c.kw}, true},
                                           {kF32, {c.oc}, true}};
        benchmark::RegisterBenchmark(name.c_str(), [c, t, name, inputs, nhwc](benchmark::State& state) {
          RunCase(state, name, t, inputs,
                  [c, nhwc](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                    return MLNamedOperands{{"out", ConvLayer(b, in, c.pad, c.stride, c.groups, nhwc)}};
                  },
                  c.Flops(), c.Bytes());
        })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
      }
    }
    for (const ConvCase& c : ConvCases()) {
      const ConvCase p = c.ChainPartner();
      const std::string name = std::string("peer_chain/conv/") + c.name + suffix;
      const std::vector<BenchInput> inputs = {{kF32, {c.n, c.c, c.h, c.w}},
                                              {kF32, {c.oc, c.c / c.groups, c.kh, c.kw}, true},
                                              {kF32, {c.oc}, true},
                                              {kF32, {p.oc, p.c / p.groups, p.kh, p.kw}, true},
                                              {kF32, {p.oc}, true}};
      benchmark::RegisterBenchmark(name.c_str(), [c, p, t, name, inputs](benchmark::State& state) {
        RunCase(state, name, t, inputs,
                [c, p](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                  const MLOperand y = ConvLayer(b, {in[0], in[1], in[2]}, c.pad, c.stride, c.groups);
                  return MLNamedOperands{{"out", ConvLayer(b, {y, in[3], in[4]}, p.pad, p.stride, p.groups)}};
                },
                c.ChainFlops(), c.Bytes() + p.Bytes());
      })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    }
    for (const EltwiseCase& c : EltwiseCases()) {
      const std::string name = "peer/eltwise/" + c.Name() + suffix;
      std::vector<BenchInput> inputs = {{kF32, {c.elements}}};
      if (c.binary) inputs.push_back({kF32, {c.elements}});
      benchmark::RegisterBenchmark(name.c_str(), [c, t, name, inputs](benchmark::State& state) {
        RunCase(state, name, t, inputs,
                [c](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                  const std::string op = c.op;
                  MLOperand out;
                  if (op == "add") out = b.add(in[0], in[1]);
                  else if (op == "mul") out = b.mul(in[0], in[1]);
                  else if (op == "relu") out = b.relu(in[0]);
                  else if (op == "sigmoid") out = b.sigmoid(in[0]);
                  else out = b.exp(in[0]);
                  return MLNamedOperands{{"out", out}};
                },
                0, c.Bytes());
      })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    }
  }
}

// The case list as JSON: what make_onnx_models.py and the report read, so
// shapes, FLOP and byte counts are defined once, here.
void PrintCasesJson(std::ostream& os) {
  os << "{\n  \"threads\": [";
  for (size_t i = 0; i < PeerThreadCounts().size(); ++i) os << (i ? ", " : "") << PeerThreadCounts()[i];
  os << "],\n  \"matmul\": [\n";
  for (size_t i = 0; i < MatmulCases().size(); ++i) {
    const auto& c = MatmulCases()[i];
    os << "    {\"name\": \"" << c.name << "\", \"origin\": \"" << c.origin << "\", \"m\": " << c.m << ", \"k\": " << c.k
       << ", \"n\": " << c.n << ", \"flops\": " << c.Flops() << "}" << (i + 1 < MatmulCases().size() ? ",\n" : "\n");
  }
  os << "  ],\n  \"conv\": [\n";
  for (size_t i = 0; i < ConvCases().size(); ++i) {
    const auto& c = ConvCases()[i];
    os << "    {\"name\": \"" << c.name << "\", \"origin\": \"" << c.origin << "\", \"n\": " << c.n << ", \"c\": " << c.c
       << ", \"h\": " << c.h << ", \"w\": " << c.w << ", \"oc\": " << c.oc << ", \"kh\": " << c.kh << ", \"kw\": " << c.kw
       << ", \"stride\": " << c.stride << ", \"pad\": " << c.pad << ", \"groups\": " << c.groups
       << ", \"flops\": " << c.Flops() << ", \"bytes\": " << c.Bytes() << ", \"chain_flops\": " << c.ChainFlops()
       << ", \"chain_partner\": {\"c\": " << c.ChainPartner().c << ", \"oc\": " << c.ChainPartner().oc
       << ", \"groups\": " << c.ChainPartner().groups << "}}"
       << (i + 1 < ConvCases().size() ? ",\n" : "\n");
  }
  os << "  ],\n  \"eltwise\": [\n";
  for (size_t i = 0; i < EltwiseCases().size(); ++i) {
    const auto& c = EltwiseCases()[i];
    os << "    {\"name\": \"" << c.Name() << "\", \"op\": \"" << c.op << "\", \"binary\": " << (c.binary ? "true" : "false")
       << ", \"elements\": " << c.elements << ", \"bytes\": " << c.Bytes() << "}"
       << (i + 1 < EltwiseCases().size() ? ",\n" : "\n");
  }
  os << "  ]\n}\n";
}

}  // namespace
}  // namespace webnn::bench::peers

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--peer_cases_json") == 0) {
      std::cout.precision(17);
      webnn::bench::peers::PrintCasesJson(std::cout);
      return 0;
    }
  }
  webnn::bench::peers::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
