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
#include <thread>

namespace webnn::scheduler {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Spins until done() or until `budget` has passed; returns done()'s last
// value. Every 64 iterations it reads the clock (a vDSO read is ~20 ns) and
// yields the core (std::this_thread::yield, returning at once when nothing
// else is runnable): a spinning thread must not hold a core that a thread it
// waits for, or one just woken, needs. Linux's EEVDF scheduler otherwise
// lets the spinner finish its slice: a worker's 50 us idle spin after a job
// delayed the readTensor caller that job had just woken. Xeon, 2 vCPUs, two
// sets of interleaved runs, without / with the yield: int4 matvec 1x4096x4096
// at 2 threads 0.414-0.421 / 0.391-0.410 ms per dispatch + read; PP-OCR cls
// 0.55-0.63 / 0.52-0.58 ms at 1 thread, 0.68-0.72 / 0.66-0.67 at 2; rec at 2
// threads 6.83-6.89 / 6.58-6.69 ms; webnn mix (cls beside det) cls p99
// 2.12-2.40 / 1.91-2.21 ms, det 31.5-32.0 / 30.3-31.7 per second.
template <class Done>
bool SpinUntil(std::chrono::nanoseconds budget, const Done& done) {
  const auto until = std::chrono::steady_clock::now() + budget;
  for (unsigned spin = 1;; ++spin) {
    if (done()) return true;
    CpuRelax();
    if (spin % 64 == 0) {
      std::this_thread::yield();
      if (std::chrono::steady_clock::now() > until) return done();
    }
  }
}

}  // namespace webnn::scheduler
