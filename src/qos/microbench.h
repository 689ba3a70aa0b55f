// The one microbenchmark engine (issue 11): calibration of the cost model,
// `webnn bench`, and later kernel tuning all time their candidates here, so
// that every number they report was taken the same way.
//
// A sample is one call of a candidate; it returns the milliseconds it
// measured itself (e.g. the summed step times of a profiled dispatch), or
// NaN to be timed by wall clock around the call. Candidates are warmed up,
// then sampled interleaved (A B C A B C ...) so that a slow phase of a shared
// machine hits all of them alike, until each has `min_samples` and
// `min_seconds` of samples (or `max_samples` / `max_seconds`). The result is
// the median.
//
// Busy-machine check: around every sample the process's CPU time is read.
// A sample that ran `threads` threads for its whole wall time has CPU time
// close to threads x wall; when another process takes our cores, wall time
// grows and the ratio drops. A sample whose ratio is below
// `busy_cpu_fraction` x threads is counted as disturbed; disturbed samples
// are left out of the median while enough undisturbed ones remain, and the
// result says how many there were.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace webnn::qos {

struct TimingOptions {
  int warmup = 1;
  int min_samples = 3;
  int max_samples = 25;
  double min_seconds = 0.02;  // per candidate, after the warm-up
  double max_seconds = 1.0;   // per candidate
  // Threads a sample keeps busy (for the CPU-time check); 0 turns the check off.
  unsigned threads = 1;
  double busy_cpu_fraction = 0.6;
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int samples = 0;    // in the median
  int disturbed = 0;  // samples the CPU-time check flagged
  // Process CPU seconds per wall second over all samples (threads x 1.0 when
  // every thread ran all the time).
  double cpu_per_wall = 0;
};

using Sample = std::function<double()>;

// Times each candidate; results in the candidates' order.
std::vector<Timing> MeasureInterleaved(std::span<const Sample> candidates, const TimingOptions& options = {});
Timing Measure(const Sample& candidate, const TimingOptions& options = {});

// The process's CPU time in seconds (all threads).
double ProcessCpuSeconds();

}  // namespace webnn::qos
