// Peak probes of the gpu device, measured by our own shaders
// (shaders/probe_fma.comp, probe_copy.comp, probe_coopmat.comp): the denominators of "fraction of
// peak" in the benchmarks, and later inputs of the cost model.
#pragma once

#include <optional>

#include "ops/device.h"

namespace webnn::ops::gpu {

struct GpuPeak {
  double fma_gflops = 0;  // float32 FMA throughput, 2 flops per FMA
  double copy_gbps = 0;   // device-memory copy, bytes read + written
  // float16 cooperative-matrix products with float32 accumulators (the
  // tensor cores), 2 flops per multiply-add; 0 where the device has none.
  double coopmat_f16_gflops = 0;
};

// Best of a few runs of each probe, each sized to take at least ~20 ms of
// device time (timestamp queries). Empty when `device` is not the gpu device.
std::optional<GpuPeak> MeasureGpuPeak(Device& device);

}  // namespace webnn::ops::gpu
