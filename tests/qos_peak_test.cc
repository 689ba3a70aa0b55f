// The measured machine peaks (qos/peak.h). No timing assertions: a shared
// machine may give any rate; the values only have to be usable as divisors.
#include <cmath>

#include <catch2/catch.hpp>

#include "qos/peak.h"

using namespace webnn::qos;

TEST_CASE("peaks: FMA throughput and memory bandwidth are positive and finite", "[qos]") {
  for (unsigned threads : {1u, 2u}) {
    const double fma = MeasureFmaPeakGflops(threads);
    const double bandwidth = MeasureMemoryBandwidthGBps(threads);
    INFO("threads " << threads << ": " << fma << " GFLOP/s, " << bandwidth << " GB/s");
    CHECK(std::isfinite(fma));
    CHECK(fma > 0);
    CHECK(std::isfinite(bandwidth));
    CHECK(bandwidth > 0);
  }
}

TEST_CASE("peaks: MeasuredPeaks measures once per thread count", "[qos]") {
  const MachinePeaks& one = MeasuredPeaks(1);
  CHECK(&MeasuredPeaks(1) == &one);  // cached
  CHECK(&MeasuredPeaks(0) == &one);  // 0 counts as 1
  CHECK(one.threads == 1);
  CHECK(std::isfinite(one.fma_gflops));
  CHECK(one.fma_gflops > 0);
  CHECK(std::isfinite(one.bandwidth_gbps));
  CHECK(one.bandwidth_gbps > 0);
  CHECK(one.fma_vector_bits >= 32);
  CHECK(MeasuredPeaks(2).threads == 2);
}

