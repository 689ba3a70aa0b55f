// Measured machine peaks (issue 11): the float32 FMA throughput and the
// memory bandwidth that `webnn bench` and the cost model quote kernels
// against. Measured rather than taken from a data sheet because hosts differ
// in ways the ISA does not show (Zen 4 splits a 512-bit FMA in two, clocks
// drop under wide vectors, a VM gets a share of the memory channels).
//
// Both run on plain std::threads, not the scheduler's pool: a peak is what
// the hardware gives `threads` busy threads, whatever the pool does.
#pragma once

namespace webnn::qos {

// float32 FMA throughput in GFLOP/s (2 flops per lane per fused multiply-add)
// over `threads` threads (0 counts as 1), with the widest vectors of the best
// Highway target the cpu device dispatches to (WEBNN_CPU_MAX_TARGET caps it as
// it caps the kernels). About 50-100 ms; the best of a few repeats.
double MeasureFmaPeakGflops(unsigned threads);

// STREAM triad a[i] = b[i] + s * c[i] over three 64 MiB float32 arrays (beyond
// the last-level cache of the machines we run on), split over `threads`
// threads (0 counts as 1), in GB/s counted as STREAM does: 12 bytes per element
// (two reads and a write, not the write-allocate read). About 100-200 ms, the
// best of a few repeats; the arrays are freed before it returns.
double MeasureMemoryBandwidthGBps(unsigned threads);

struct MachinePeaks {
  double fma_gflops = 0;
  double bandwidth_gbps = 0;
  unsigned threads = 0;
  unsigned fma_vector_bits = 0;  // the vector width the FMA peak was reached with
};

// Both peaks at `threads` threads (0 counts as 1), measured on the first call
// for that count and cached for the process. Thread-safe; concurrent first
// calls measure one after another (they would disturb each other).
const MachinePeaks& MeasuredPeaks(unsigned threads);

}  // namespace webnn::qos
