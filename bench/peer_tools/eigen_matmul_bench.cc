// Eigen peer of the matmul comparison: C = A x B with row-major Eigen::MatrixXf
// for the shapes of peer_cases.h, built -O3 -march=native (AVX-512 where the
// machine has it) -fopenmp; Eigen parallelizes products only with OpenMP, and
// Eigen::setNbThreads picks 1 or 2 threads per case.
//
// Names: eigen/matmul/<case>/t:<threads>, the same cases as peer/matmul/... in
// webnn_peer_bench.
#include <Eigen/Core>
#include <benchmark/benchmark.h>

#include <string>

#include "peer_cases.h"

namespace webnn::bench::peers {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

void RegisterAll() {
  for (uint32_t t : PeerThreadCounts()) {
    for (const MatmulCase& c : MatmulCases()) {
      const std::string name = std::string("eigen/matmul/") + c.name + "/t:" + std::to_string(t);
      benchmark::RegisterBenchmark(name.c_str(), [c, t](benchmark::State& state) {
        Eigen::setNbThreads(static_cast<int>(t));
        RowMatrix a = RowMatrix::Random(c.m, c.k);
        RowMatrix b = RowMatrix::Random(c.k, c.n);
        RowMatrix out(c.m, c.n);
        out.noalias() = a * b;  // warm-up: first-touch of `out` and Eigen's block buffers
        for (auto _ : state) {
          out.noalias() = a * b;
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        state.counters["GFLOP"] = benchmark::Counter(c.Flops() * 1e-9, benchmark::Counter::kIsIterationInvariantRate,
                                                     benchmark::Counter::kIs1000);
        state.counters["eigen_threads"] = Eigen::nbThreads();
      })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace
}  // namespace webnn::bench::peers

int main(int argc, char** argv) {
  webnn::bench::peers::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
