// The measured machine peaks (qos/peak.h). No timing assertions: a shared
// machine may give any rate; the values only have to be usable as divisors.
#include <cmath>
#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include "qos/peak.h"
#include "webnn/webnn.h"

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

// WEBNN_CPU_MAX_TARGET must hold after what asks the cpu device for its
// description (createContext logs it, ML::devices() lists it): Highway
// 1.0.3's SupportedTargets() there used to point dispatch back at the best
// target, so the capped runs (meson's cpu_kernels_<target>) ran uncapped.
// The FMA probe dispatches like the kernels; its vector width shows where.
TEST_CASE("cpu: WEBNN_CPU_MAX_TARGET still caps dispatch after createContext and devices()", "[cpu]") {
  const char* cap = std::getenv("WEBNN_CPU_MAX_TARGET");
  const std::string target = cap ? cap : "";
  const unsigned max_bits = target == "AVX2" ? 256 : target == "SSE4" ? 128 : target == "SCALAR" ? 32 : 0;
  if (max_bits == 0) return;  // uncapped (or a target this test does not know)
  webnn::ML::devices();
  webnn::MLContext ctx = webnn::ML::createContext({.device = webnn::MLDeviceType::kCpu});
  CHECK(MeasuredPeaks(1).fma_vector_bits <= max_bits);
}
