// The machine peaks of qos/peak.h. The kernels are Highway code compiled for
// every target the library builds (the library itself is built for the
// baseline ISA) and run at the one the cpu device dispatches to.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "qos/peak.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ops/device.h"
#include "qos/peak.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::qos {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Hides `v` from the optimizer while keeping it in a vector register. Without
// it GCC collapses the chains into a closed form, or reads `a` as a memory
// operand of each FMA, which measured 156 GFLOP/s per core where 222 is
// reached (Xeon, AVX-512; bench/probes/fma_peak_bench.cc).
template <class V>
HWY_INLINE void KeepInRegister(V& v) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  asm volatile("" : "+v"(v.raw));
#elif HWY_ARCH_ARM_A64 && HWY_TARGET == HWY_NEON
  asm volatile("" : "+w"(v.raw));
#elif HWY_ARCH_ARM_A64 && (HWY_TARGET & (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128))
  asm volatile("" : "+w"(v));  // SVE vectors are the raw sizeless type
#else
  asm volatile("" : "+m"(v));  // the emulated targets: no peak to protect
#endif
}

// kChains independent chains acc = m * a + acc: enough to cover FMA latency
// (4-5 cycles) times two FMA ports with room to spare, and few enough to stay
// in registers with m and a: 16 of 32, or 12 where x86 has 16 vector registers
// (AVX2 with 16 chains spilled and read 103 GFLOP/s where 129 is reached).
// The accumulator is the addend, the one operand NEON's fmla overwrites
// (the probe's acc * m + a costs a register copy per FMA there). The values
// grow by m * a = 5e-7 per iteration: no overflow in the 2^24 iterations we
// run at most, nothing denormal. Returns the lanes' sum (the work is not
// dead); *bits: the vector width; *flops: flops per iteration.
float FmaChains(float seed, int64_t iterations, uint32_t* bits, double* flops) {
  constexpr int kChains = HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3 ? 12 : 16;
  const hn::ScalableTag<float> d;
  auto m = hn::Set(d, 0.5f);
  auto a = hn::Set(d, 1e-6f * seed);
  // Sixteen named accumulators, not an array: SVE vectors cannot be elements.
#define WEBNN_PEAK_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define WEBNN_PEAK_INIT(c) auto acc##c = hn::Set(d, static_cast<float>(c));
#define WEBNN_PEAK_STEP(c) \
  if constexpr (c < kChains) acc##c = hn::MulAdd(m, a, acc##c);
#define WEBNN_PEAK_SUM(c) sum = hn::Add(sum, acc##c);
  WEBNN_PEAK_CHAINS(WEBNN_PEAK_INIT)
  for (int64_t i = 0; i < iterations; ++i) {
    WEBNN_PEAK_CHAINS(WEBNN_PEAK_STEP)
    KeepInRegister(m);
    KeepInRegister(a);
  }
  auto sum = hn::Zero(d);
  WEBNN_PEAK_CHAINS(WEBNN_PEAK_SUM)
#undef WEBNN_PEAK_SUM
#undef WEBNN_PEAK_STEP
#undef WEBNN_PEAK_INIT
#undef WEBNN_PEAK_CHAINS
  *bits = static_cast<uint32_t>(hn::Lanes(d) * 32);
  *flops = 2.0 * kChains * static_cast<double>(hn::Lanes(d));
  return hn::GetLane(hn::SumOfLanes(d, sum));
}

// a[i] = b[i] + s * c[i] for i in [begin, end), with plain stores (STREAM's).
void Triad(float* HWY_RESTRICT a, const float* HWY_RESTRICT b, const float* HWY_RESTRICT c, float s, size_t begin,
           size_t end) {
  const hn::ScalableTag<float> d;
  const size_t n = hn::Lanes(d);
  const auto vs = hn::Set(d, s);
  size_t i = begin;
  for (; i + n <= end; i += n) hn::StoreU(hn::MulAdd(vs, hn::LoadU(d, c + i), hn::LoadU(d, b + i)), d, a + i);
  for (; i < end; ++i) a[i] = b[i] + s * c[i];
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::qos
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::qos {

HWY_EXPORT(FmaChains);
HWY_EXPORT(Triad);

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// The dispatch target is chosen at the first HWY_DYNAMIC_DISPATCH of the
// process; creating the cpu device first applies its WEBNN_CPU_MAX_TARGET cap,
// so the peak is measured at the target the kernels run at.
void ApplyCpuTargetCap() {
  static const bool once = (ops::FindDevice(MLDeviceType::kCpu), true);
  (void)once;
}

// Runs body(t) on `threads` threads (t = 0 on the caller); the wall seconds.
template <class Body>
double RunThreads(unsigned threads, const Body& body) {
  const Clock::time_point t0 = Clock::now();
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back([&body, t] { body(t); });
  body(0);
  for (std::thread& w : workers) w.join();
  return Seconds(t0);
}

// Repeats `once` (seconds per run) at least `min_runs` and at most `max_runs`
// times, stopping once `budget` seconds have gone; the fastest run.
template <class Once>
double BestOf(int min_runs, int max_runs, double budget, const Once& once) {
  const Clock::time_point t0 = Clock::now();
  double best = once();
  for (int r = 1; r < max_runs && (r < min_runs || Seconds(t0) < budget); ++r) best = std::min(best, once());
  return best;
}

struct FmaPeak {
  double gflops = 0;
  uint32_t bits = 0;
};

FmaPeak MeasureFma(unsigned threads) {
  ApplyCpuTargetCap();
  threads = std::max(threads, 1u);
  std::vector<float> sink(threads);
  uint32_t bits = 0;
  double flops_per_iteration = 0;
  // A short run sizes the repeats to ~12 ms each whatever the target (the
  // emulated ones are many times slower), and wakes the wide units up.
  constexpr int64_t kProbe = 1 << 16;
  const double probe = RunThreads(1, [&](unsigned) {
    sink[0] = HWY_DYNAMIC_DISPATCH(FmaChains)(1.0f, kProbe, &bits, &flops_per_iteration);
  });
  const int64_t iterations = std::clamp<int64_t>(static_cast<int64_t>(0.012 / probe * kProbe), 1 << 14, 1 << 24);
  const double seconds = BestOf(3, 6, 0.08, [&] {
    return RunThreads(threads, [&](unsigned t) {
      uint32_t unused_bits;
      double unused_flops;
      sink[t] = HWY_DYNAMIC_DISPATCH(FmaChains)(static_cast<float>(t + 1), iterations, &unused_bits, &unused_flops);
    });
  });
  return {flops_per_iteration * static_cast<double>(iterations) * threads / seconds * 1e-9, bits};
}

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};

}  // namespace

double MeasureFmaPeakGflops(unsigned threads) { return MeasureFma(threads).gflops; }

double MeasureMemoryBandwidthGBps(unsigned threads) {
  ApplyCpuTargetCap();
  threads = std::max(threads, 1u);
  constexpr size_t kElements = size_t{16} << 20;  // 64 MiB per array
  auto array = [] {
    return std::unique_ptr<float[], FreeDeleter>(static_cast<float*>(std::aligned_alloc(64, kElements * 4)));
  };
  auto a = array(), b = array(), c = array();
  if (!a || !b || !c) return 0;
  // Chunks of whole 64-byte lines; each thread first-touches the chunk it
  // streams (its NUMA node's memory on machines with several).
  const size_t per = ((kElements + threads - 1) / threads + 15) / 16 * 16;
  auto chunk = [&](unsigned t) { return std::pair(std::min(kElements, t * per), std::min(kElements, (t + 1) * per)); };
  RunThreads(threads, [&](unsigned t) {
    const auto [begin, end] = chunk(t);
    std::fill(a.get() + begin, a.get() + end, 0.0f);
    std::fill(b.get() + begin, b.get() + end, 1.0f);
    std::fill(c.get() + begin, c.get() + end, 2.0f);
  });
  const double seconds = BestOf(3, 8, 0.15, [&] {
    return RunThreads(threads, [&](unsigned t) {
      const auto [begin, end] = chunk(t);
      HWY_DYNAMIC_DISPATCH(Triad)(a.get(), b.get(), c.get(), 0.5f, begin, end);
    });
  });
  return 3.0 * sizeof(float) * kElements / seconds * 1e-9;
}

const MachinePeaks& MeasuredPeaks(unsigned threads) {
  threads = std::max(threads, 1u);
  // Never destroyed: references handed out stay valid through exit.
  static std::mutex* mutex = new std::mutex;
  static auto* cache = new std::map<unsigned, MachinePeaks>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = cache->find(threads);
  if (it == cache->end()) {
    const FmaPeak fma = MeasureFma(threads);
    const double bandwidth = MeasureMemoryBandwidthGBps(threads);
    it = cache->emplace(threads, MachinePeaks{fma.gflops, bandwidth, threads, fma.bits}).first;
  }
  return it->second;
}

}  // namespace webnn::qos
#endif  // HWY_ONCE
