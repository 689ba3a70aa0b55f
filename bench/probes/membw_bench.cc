// Memory-bandwidth probe: the four STREAM kernels on float32 arrays far larger
// than the last-level cache (16M floats = 64 MiB per array; L3 here is 32 MiB),
// at 1 and 2 threads, in GB/s. Element-wise ops are judged against it: a
// binary op moves what `add` moves (2 reads + 1 write), a unary op what `scale`
// moves (1 read + 1 write).
//
// Counting is STREAM's: bytes the kernel reads and writes, not the extra
// write-allocate read of the destination line that regular stores cause. Our
// element-wise benchmarks count the same way, so the ratio compares like with
// like. Plain stores only: built with -fno-tree-loop-distribute-patterns so GCC
// does not turn `copy` into memcpy (glibc's memcpy switches to non-temporal
// stores on large sizes, which would measure something else).
//
// Names: membw/<copy|scale|add|triad>/<N>M/t:<threads>.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace webnn::bench::probes {
namespace {

struct Arrays {
  size_t n = 0;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  ~Arrays() { Free(); }
  void Free() {
    std::free(a);
    std::free(b);
    std::free(c);
    a = b = c = nullptr;
    n = 0;
  }
};

// Splits [0, n) into `threads` chunks aligned to 16 floats (one 64-byte line)
// and runs body(begin, end) on each, chunk 0 on the calling thread.
template <class Body>
void ParallelChunks(size_t n, unsigned threads, const Body& body) {
  const size_t per = ((n + threads - 1) / threads + 15) / 16 * 16;
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    const size_t begin = std::min(n, t * per), end = std::min(n, (t + 1) * per);
    workers.emplace_back([&body, begin, end] { body(begin, end); });
  }
  body(0, std::min(n, per));
  for (auto& w : workers) w.join();
}

// One set of arrays, kept across calls: Google Benchmark calls a benchmark
// several times while it sizes the iteration count, and first-touching 768 MiB
// each time would dominate the run's wall time.
Arrays& ArraysFor(size_t n, unsigned threads) {
  static Arrays arrays;
  if (arrays.n != n) {
    arrays.Free();
    const size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
    arrays.a = static_cast<float*>(std::aligned_alloc(64, bytes));
    arrays.b = static_cast<float*>(std::aligned_alloc(64, bytes));
    arrays.c = static_cast<float*>(std::aligned_alloc(64, bytes));
    arrays.n = n;
    // First touch with the same split the kernels use (one NUMA node here,
    // but it keeps the probe honest on machines with more).
    ParallelChunks(n, threads, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        arrays.a[i] = 1.0f;
        arrays.b[i] = 2.0f;
        arrays.c[i] = 0.0f;
      }
    });
  }
  return arrays;
}

enum class Kernel { kCopy, kScale, kAdd, kTriad };

void RunKernel(Kernel k, Arrays& x, unsigned threads) {
  float* __restrict a = x.a;
  float* __restrict b = x.b;
  float* __restrict c = x.c;
  constexpr float s = 3.0f;
  ParallelChunks(x.n, threads, [&](size_t begin, size_t end) {
    switch (k) {
      case Kernel::kCopy:
        for (size_t i = begin; i < end; ++i) c[i] = a[i];
        break;
      case Kernel::kScale:
        for (size_t i = begin; i < end; ++i) b[i] = s * c[i];
        break;
      case Kernel::kAdd:
        for (size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
        break;
      case Kernel::kTriad:
        for (size_t i = begin; i < end; ++i) a[i] = b[i] + s * c[i];
        break;
    }
  });
}

void RegisterAll() {
  const std::pair<const char*, Kernel> kernels[] = {
      {"copy", Kernel::kCopy}, {"scale", Kernel::kScale}, {"add", Kernel::kAdd}, {"triad", Kernel::kTriad}};
  for (size_t n : {size_t{1} << 24, size_t{1} << 26}) {
    for (unsigned threads : {1u, 2u}) {
      for (const auto& [label, kernel] : kernels) {
        const std::string name =
            std::string("membw/") + label + "/" + std::to_string(n >> 20) + "M/t:" + std::to_string(threads);
        const double bytes_per_element = (kernel == Kernel::kAdd || kernel == Kernel::kTriad) ? 12.0 : 8.0;
        benchmark::RegisterBenchmark(name.c_str(), [n, threads, kernel = kernel, bytes_per_element](benchmark::State& state) {
          Arrays& x = ArraysFor(n, threads);
          RunKernel(kernel, x, threads);  // warm-up
          for (auto _ : state) {
            RunKernel(kernel, x, threads);
            benchmark::ClobberMemory();
          }
          state.counters["GB"] = benchmark::Counter(bytes_per_element * n * 1e-9, benchmark::Counter::kIsIterationInvariantRate,
                                                    benchmark::Counter::kIs1000);
        })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
      }
    }
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
