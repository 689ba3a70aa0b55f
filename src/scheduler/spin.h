// Bounded busy-waiting, measured in time rather than in iterations.
//
// A thread that expects work (or a result) within microseconds spins instead
// of sleeping, because a futex wake-up costs 5-20 us and more on a shared VM.
// The bound must be a duration: the x86 PAUSE instruction's latency differs
// between microarchitectures (10.4 ns measured on an Intel Xeon), so the
// pool's spins of 20000 PAUSEs, written as ~50 us, were ~200 us there, and
// every microsecond spun past the useful window is a core taken from the
// pool's other threads on a small machine.
#pragma once

#include <chrono>

namespace webnn::scheduler {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until done() or until `budget` has passed; returns done()'s last
// value. The clock is read every 64 iterations (a vDSO read is ~20 ns).
template <class Done>
bool SpinUntil(std::chrono::nanoseconds budget, const Done& done) {
  const auto until = std::chrono::steady_clock::now() + budget;
  for (unsigned spin = 1;; ++spin) {
    if (done()) return true;
    CpuRelax();
    if (spin % 64 == 0 && std::chrono::steady_clock::now() > until) return done();
  }
}

}  // namespace webnn::scheduler
