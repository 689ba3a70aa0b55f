// Kernel tuning (`webnn tune`, issue 11): the cpu device's candidates for a
// layer (ops/cpu/tuning.h) built as one-op graphs, each compiled with a
// one-entry tuning table that forces it, and timed against each other by the
// microbenchmark engine (interleaved, medians of the profiled kernel step).
// A candidate replaces the model's choice only when it is faster by more
// than `margin` and `min_gain_ms`: the table then changes only what was
// measured to matter.
//
// Like calibrate.h, a client of the public API that lives in the library.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ops/conv2d.h"
#include "ops/cpu/tuning.h"
#include "webnn/webnn.h"

namespace webnn::qos {

// A conv2d layer as the cpu device compiles it.
struct ConvLayer {
  std::vector<uint32_t> input, filter;  // in attrs' layouts
  ops::Conv2dAttrs attrs;               // (a fused activation is not kept)
  bool bias = false;
  std::string label;                    // where it comes from, for the report
};

// The conv2d steps that run on cpu in `graph`'s compiled program (after the
// passes, so in the layouts the device sees), one per distinct tuning key.
std::vector<ConvLayer> ConvLayersOf(const MLGraph& graph, const std::string& source);

struct TuneOptions {
  unsigned threads = 0;  // the context's numThreads (0: all)
  bool quick = false;    // fewer samples: tests
  double margin = 0.03;  // a candidate must beat the model's choice by this share
  double min_gain_ms = 0.002;  // and by this much: a layer of microseconds is not decided by timer noise
  std::function<void(size_t done, size_t total, const std::string& label)> progress;
};

struct TunedLayer {
  std::string key, label;
  std::string model;                                  // the built-in model's choice
  std::string chosen;                                 // what the table now says (the model's when it stands)
  std::vector<std::pair<std::string, double>> ms;     // candidate, median kernel ms; model first
};

struct TuneResult {
  std::vector<TunedLayer> layers;
  ops::cpu::TuningTable table;  // entries for the layers whose choice changed; machine, version, threads set
  double seconds = 0;
};

// Measures every layer's candidates on a cpu context. The process's tuning
// table is restored afterwards.
TuneResult Tune(const std::vector<ConvLayer>& layers, const TuneOptions& options);

}  // namespace webnn::qos
