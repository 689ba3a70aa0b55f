// The cost model behind DAOP's estimateQoS (issue 11): a graph's latency on
// a device, as the sum over its *compiled* program (after the graph passes)
// of each step's predicted time, plus the measured cost of one dispatch.
//
// Each step falls into a class, modelled on its key parameters (KeyOf):
//   matmul / gemm        M, K, N (B constant or not: two classes)
//   conv2d               C/groups, OC/groups, KH x KW, output pixels; depthwise
//                        (channels, KH x KW, output pixels, output width),
//                        strided and nhwc have classes of their own
//   convTranspose2d      C/groups, OC/groups, KH x KW, input pixels
//   pool2d               window elements, output elements (one class per op)
//   quantizedMatmul      M, K, N
//   gru / lstm (+cells)  hidden size, per-step work
//   attention            seqQ, seqKV, head size, query heads, query heads per kv head
//   everything else      its bytes, one class per op (reductions: also the
//                        reduced length; fusedElementwise: also its length)
// A class's grid holds ln(nanoseconds per unit of work) at calibrated points
// in log2 space; a step's time is its work times the exp of the multilinear
// interpolation at its coordinates (clamped to the grid: beyond the largest
// point the rate stays). Interpolating a rate, not a time, keeps shapes far
// beyond the grid sensible, and lets small shapes carry their overheads.
//
// Work is linear in steps: one key and one interpolation (2^d corners, d <= 5)
// per step.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "ops/device.h"

namespace webnn::qos {

// A step's place in the model: its class, its coordinates (log2 of the
// class's key parameters) and its work (the unit its grid is in: flops,
// window operations or bytes).
struct StepKey {
  std::string cls;
  std::vector<double> x;
  double work = 0;
};
StepKey KeyOf(const ops::Program& program, const ops::ProgramStep& step,
              std::span<const std::vector<uint32_t>> shapes);

// The class `cls` falls back to when a profile has no grid for it: strided
// and nhwc conv classes to the plain one, a data type's class to float32's,
// an op's byte class to the generic one. "" at the end of the chain.
std::string FallbackClass(const std::string& cls);

struct Grid {
  std::vector<std::vector<double>> axes;  // per coordinate, increasing log2 points
  std::vector<double> ln_ns;              // ln(ns per unit of work), row-major over axes; NaN: not measured
  double floor_ms = 0;                    // the smallest shape's time: no step of the class takes less
  // Multilinear in the coordinates, clamped to the axes. NaN corners are
  // skipped (their weight goes to the others).
  double Interpolate(std::span<const double> x) const;
  size_t points() const;
};

// A device's calibrated model, keyed by what it was measured on.
struct Profile {
  std::string device;          // "cpu", "gpu", "reference"
  std::string machine;         // the device's description (CPU model, SIMD target / GPU name)
  std::string engine_version;
  unsigned threads = 1;
  bool calibrated = false;     // false: the built-in conservative default
  double dispatch_ms = 0;      // per dispatch, beyond its steps
  double step_ms = 0;          // per step, beyond its grid (the default's only)
  // Streaming constants (EstimateProgram): the memory bandwidth measured at
  // these threads and the cache constants stay warm in (measured); 0: not
  // known.
  double dram_gbps = 0;
  double llc_bytes = 0;
  double calibration_seconds = 0;
  std::map<std::string, Grid> grids;
  // The public DAOP polyfill's model, calibrated alongside as the baseline:
  // per op, ln t[ms] = c0 + c1 ln n over the first input's elements.
  std::map<std::string, std::pair<double, double>> polyfill_lines;
};

// A conservative model for an uncalibrated device: 10 GFLOP/s per thread for
// products and convolutions, 2 GB/s per thread for everything else, 20 us per
// step and 100 us per dispatch. On the Xeon host's cpu device it estimated
// PP-OCR det, rec and cls 5-6x slower than measured; a slower device
// (lavapipe) may be slower than it.
Profile DefaultProfile(const std::string& device, const std::string& machine, unsigned threads);

struct StepEstimate {
  double ms = 0;
  std::string cls;  // the class whose grid answered ("" for none: the default rate)
};
struct Estimate {
  double ms = 0;  // the whole dispatch
  std::vector<StepEstimate> steps;
};

// Warm profiling: measured step times refine the model for the steps seen.
// Per class, an exponentially weighted mean of ln(measured / predicted),
// weighted by time, applied to every later prediction of that class.
class WarmCorrections {
 public:
  void Observe(const std::string& cls, double predicted_ms, double measured_ms);
  double Factor(const std::string& cls) const;
  size_t observations() const { return observations_; }

 private:
  std::map<std::string, std::pair<double, double>> ln_ratio_;  // class -> (weighted sum, weight)
  size_t observations_ = 0;
};

Estimate EstimateProgram(const Profile& profile, const ops::Program& program,
                         std::span<const std::vector<uint32_t>> shapes, const WarmCorrections* warm = nullptr);

// The polyfill's estimate of the same program, for comparison:
// Σ per-op lines (0.1 ms for an op it does not model) + 0.5 ms + 0.005 ms
// per step.
double PolyfillEstimateMs(const Profile& profile, const ops::Program& program,
                          std::span<const std::vector<uint32_t>> shapes);

}  // namespace webnn::qos
