// FMA-throughput probe: the float32 GFLOP/s a core (and both cores) can reach
// with fused multiply-adds and nothing else, the "peak" that GEMM and conv
// efficiencies are quoted against. Measured rather than computed from a data
// sheet because the hosts differ in ways the ISA does not show: Zen 4 splits a
// 512-bit FMA into two 256-bit halves, Zen 5 and Intel server cores issue two
// full 512-bit FMAs per cycle, and clocks drop under wide vectors.
//
// Each thread runs kChains independent accumulator chains (acc = acc * m + a):
// enough to cover FMA latency (4-5 cycles) times two FMA ports with room to
// spare, and few enough to stay in registers (16 of the 32 zmm registers).
// The values converge to a / (1 - m), so nothing overflows or goes denormal.
// Built -O3 -march=native like the peers; GCC's vector extensions give one
// instruction per operation at the named width (two on a host without it).
//
// Names: fma_peak/<bits>/t:<threads>, bits 256 or 512; counters GFLOP (rate).
#include <benchmark/benchmark.h>

#include <string>
#include <thread>
#include <vector>

namespace webnn::bench::probes {
namespace {

constexpr int kChains = 16;
constexpr long kIterations = 1 << 20;  // per thread per benchmark iteration
// (a vector_size attribute cannot depend on a template parameter)
typedef float V256 __attribute__((vector_size(32)));
typedef float V512 __attribute__((vector_size(64)));

template <class V, int kBytes = sizeof(V)>
float Chains(float seed) {
  V acc[kChains];
  V m, a;
  for (int l = 0; l < int(kBytes / sizeof(float)); ++l) {
    m[l] = 0.9999f;
    a[l] = 1e-4f * seed;
  }
  for (int c = 0; c < kChains; ++c) acc[c] = m * float(c);
  for (long i = 0; i < kIterations; ++i) {
#pragma GCC unroll 16
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * m + a;
    // Keeps GCC from collapsing the loop into a closed form, and m and a in
    // registers: with `a` as a memory operand (GCC's choice otherwise) the
    // probe read 156 GFLOP/s per core where 222 is reached (Xeon, AVX-512).
    asm volatile("" : "+v"(m), "+v"(a));
  }
  V sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum += acc[c];
  float s = 0;
  for (int l = 0; l < int(kBytes / sizeof(float)); ++l) s += sum[l];
  return s;
}

template <class V, int kBytes = sizeof(V)>
void Register(unsigned threads) {
  const std::string name = "fma_peak/" + std::to_string(kBytes * 8) + "/t:" + std::to_string(threads);
  benchmark::RegisterBenchmark(name.c_str(), [threads](benchmark::State& state) {
    std::vector<float> sink(threads);
    for (auto _ : state) {
      std::vector<std::thread> workers;
      for (unsigned t = 1; t < threads; ++t) workers.emplace_back([&sink, t] { sink[t] = Chains<V>(float(t + 1)); });
      sink[0] = Chains<V>(1.0f);
      for (auto& w : workers) w.join();
      benchmark::DoNotOptimize(sink.data());
    }
    const double flops = 2.0 * kChains * (kBytes / sizeof(float)) * double(kIterations) * threads;
    state.counters["GFLOP"] =
        benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  })->UseRealTime()->Unit(benchmark::kMillisecond);
}

void RegisterAll() {
  for (unsigned t : {1u, 2u}) {
    Register<V256>(t);
    Register<V512>(t);
  }
}

}  // namespace
}  // namespace webnn::bench::probes

int main(int argc, char** argv) {
  webnn::bench::probes::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
