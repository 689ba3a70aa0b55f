// Benchmarks of the gpu device, each figure also as a fraction of the device's
// own peak measured by our probe shaders (src/ops/gpu/gpu_probes.h):
//   gpu/matmul/<case>/<type>   the peer table's matmul cases (bench/peer_tools/
//                              peer_cases.h), float32 and float16, plus sq8192;
//                              GFLOP/s and of_fma_peak
//   gpu/conv/<case>            the peer table's conv2d layers; GFLOP/s, of_fma_peak
//   gpu/eltwise/<op>_<N>M      add, relu at 16M, 64M, 256M float32 elements;
//                              GB/s (STREAM counting) and of_copy_peak
//   gpu/ppocr/{det,rec,cls}    PP-OCRv4 latency, ms per inference, at the shapes
//                              of scripts/bench-models.sh (det 1x3x640x640,
//                              rec 1x3x48x320, cls 1x3x48x192): the graphs
//                              scripts/models.sh converts into bench/models
//                              (WEBNN_MODELS_DIR=build/tests/models takes the
//                              ocr_models test's); skipped when absent
// Dispatch() (dispatch + finish) waits for the device, so a dispatch's wall time is the work plus
// one submission (tens of microseconds); device_ms (and device_GFLOPs, device_GBs) is the
// graph's time on the device alone, from a profiled dispatch's timestamps.
//
//   webnn_gpu_bench [--benchmark_filter=gpu/matmul/sq4096] ...
// On lavapipe (no GPU) the large cases take seconds each: filter them.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "bench_util.h"
#include "ops/device.h"
#include "ops/gpu/gpu_probes.h"
#include "peer_tools/peer_cases.h"

namespace webnn::bench {
namespace {

ops::gpu::GpuPeak peak;

struct CachedGraph {
  std::string key;
  std::unique_ptr<BenchGraph> graph;
};

// What a case runs: `body` over `inputs`, or the model file `model`.
struct CaseGraph {
  std::vector<BenchInput> inputs;
  GraphBody body;
  std::string model;
};

// Google Benchmark calls a function several times while sizing the iteration
// count; the last graph is kept so that constants are uploaded once.
BenchGraph& GraphFor(const std::string& key, const CaseGraph& g) {
  static CachedGraph cache;
  if (cache.key != key) {
    cache.graph.reset();
    cache.key.clear();
    const MLContextOptions gpu{.device = MLDeviceType::kGpu};
    cache.graph = g.model.empty() ? std::make_unique<BenchGraph>(gpu, g.inputs, g.body)
                                  : std::make_unique<BenchGraph>(gpu, g.model);
    cache.graph->Dispatch();  // pipelines created, command buffer recorded
    cache.key = key;
  }
  return *cache.graph;
}

// `tensor`: a float16 product, which the cooperative-matrix probe bounds too.
void RunCase(benchmark::State& state, const std::string& key, const CaseGraph& graph, double flops, double bytes,
             bool tensor = false) {
  BenchGraph* g = nullptr;
  try {
    g = &GraphFor(key, graph);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) g->Dispatch();
  SetRates(state, flops, bytes);
  // The device's own time for the graph (timestamp queries, best of 5): the
  // wall time above also holds one submission and fence wait (tens of µs).
  double device_ms = INFINITY;
  for (int r = 0; r < 5; ++r) device_ms = std::min(device_ms, g->DeviceMs());
  state.counters["device_ms"] = device_ms;
  if (flops > 0) state.counters["device_GFLOPs"] = flops / (device_ms * 1e6);
  if (bytes > 0) state.counters["device_GBs"] = bytes / (device_ms * 1e6);
  const double n = static_cast<double>(state.iterations());
  if (flops > 0 && peak.fma_gflops > 0)
    state.counters["of_fma_peak"] = benchmark::Counter(flops * n / (peak.fma_gflops * 1e9), benchmark::Counter::kIsRate);
  if (tensor && flops > 0 && peak.coopmat_f16_gflops > 0)
    state.counters["of_tensor_peak"] =
        benchmark::Counter(flops * n / (peak.coopmat_f16_gflops * 1e9), benchmark::Counter::kIsRate);
  if (bytes > 0 && peak.copy_gbps > 0)
    state.counters["of_copy_peak"] = benchmark::Counter(bytes * n / (peak.copy_gbps * 1e9), benchmark::Counter::kIsRate);
}

void RegisterAll() {
  using peers::ConvCase;
  using peers::MatmulCase;
  std::vector<MatmulCase> matmuls = peers::MatmulCases();
  matmuls.push_back({"sq8192", "square", 8192, 8192, 8192});
  for (const MatmulCase& c : matmuls) {
    for (const auto type : {MLOperandDataType::kFloat32, MLOperandDataType::kFloat16}) {
      const double elem = type == MLOperandDataType::kFloat32 ? 4 : 2;
      const std::string name =
          std::string("gpu/matmul/") + c.name + (type == MLOperandDataType::kFloat32 ? "/f32" : "/f16");
      benchmark::RegisterBenchmark(name.c_str(), [c, type, elem, name](benchmark::State& state) {
        RunCase(state, name,
                {.inputs = {{type, {c.m, c.k}}, {type, {c.k, c.n}, true}},
                 .body = [](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", b.matmul(in[0], in[1])}};
                 }},
                c.Flops(), elem * (double(c.m) * c.k + double(c.k) * c.n + double(c.m) * c.n),
                type == MLOperandDataType::kFloat16);
      })->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  }
  for (const ConvCase& c : peers::ConvCases()) {
    const std::string name = std::string("gpu/conv/") + c.name;
    benchmark::RegisterBenchmark(name.c_str(), [c, name](benchmark::State& state) {
      const auto f32 = MLOperandDataType::kFloat32;
      RunCase(state, name,
              {.inputs = {{f32, {c.n, c.c, c.h, c.w}},
                          {f32, {c.oc, c.c / c.groups, c.kh, c.kw}, true},
                          {f32, {c.oc}, true}},
               .body = [c](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                 return MLNamedOperands{{"out", ConvLayer(b, in, c.pad, c.stride, c.groups)}};
               }},
              c.Flops(), c.Bytes());
    })->UseRealTime()->Unit(benchmark::kMillisecond);
  }
  for (const char* op : {"add", "relu"}) {
    for (uint32_t mega : {16u, 64u, 256u}) {
      const uint32_t n = mega << 20;
      const bool binary = std::string(op) == "add";
      const std::string name = std::string("gpu/eltwise/") + op + "_" + std::to_string(mega) + "M";
      std::vector<BenchInput> inputs = {{MLOperandDataType::kFloat32, {n}}};
      if (binary) inputs.push_back({MLOperandDataType::kFloat32, {n}});
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
        RunCase(state, name,
                {.inputs = inputs,
                 .body = [binary](MLGraphBuilder& b, const std::vector<MLOperand>& in) {
                   return MLNamedOperands{{"out", binary ? b.add(in[0], in[1]) : b.relu(in[0])}};
                 }},
                0, 4.0 * n * (binary ? 3 : 2));
      })->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  }
  const char* dir = std::getenv("WEBNN_MODELS_DIR");
  const std::string models = dir ? dir : "bench/models";
  for (const auto& [model, file] : {std::pair{"det", "det_640.json"}, {"rec", "rec.json"}, {"cls", "cls.json"}}) {
    const std::string name = std::string("gpu/ppocr/") + model, path = models + "/" + file;
    benchmark::RegisterBenchmark(name.c_str(), [name, path](benchmark::State& state) {
      if (!std::filesystem::exists(path)) {
        const std::string why = path + " not found: scripts/models.sh converts the PP-OCR models into " +
                                "bench/models (run from the source root), or set WEBNN_MODELS_DIR";
        state.SkipWithError(why.c_str());
        return;
      }
      RunCase(state, name, {.model = path}, 0, 0);
    })->UseRealTime()->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace webnn::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const auto gpu = webnn::ops::FindDevice(webnn::MLDeviceType::kGpu);
  if (!gpu) {
    std::fprintf(stderr, "no gpu device: %s\n", webnn::ops::WhyUnavailable(webnn::MLDeviceType::kGpu).c_str());
    return 1;
  }
  webnn::bench::peak = *webnn::ops::gpu::MeasureGpuPeak(*gpu);
  std::printf("gpu: %s\n  %s\n  probes: FMA %.1f GFLOP/s, copy %.1f GB/s, float16 cooperative matrix %.1f GFLOP/s\n",
              gpu->description().c_str(), gpu->features().c_str(), webnn::bench::peak.fma_gflops,
              webnn::bench::peak.copy_gbps, webnn::bench::peak.coopmat_f16_gflops);
  benchmark::AddCustomContext("gpu", gpu->description());
  benchmark::AddCustomContext("gpu_fma_peak_gflops", std::to_string(webnn::bench::peak.fma_gflops));
  benchmark::AddCustomContext("gpu_copy_peak_gbps", std::to_string(webnn::bench::peak.copy_gbps));
  benchmark::AddCustomContext("gpu_coopmat_f16_peak_gflops", std::to_string(webnn::bench::peak.coopmat_f16_gflops));
  webnn::bench::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
