// Kernel tuning (`webnn tune`, issue 11): the cpu device's candidates for a
// layer (ops/cpu/tuning.h), each compiled under a tuning table that forces
// it, timed against each other by the microbenchmark engine (interleaved,
// medians of the profiled kernel steps): in the whole graph the layer is
// part of (TuneGraphs), or alone as a one-op graph (Tune). A candidate
// replaces the model's choice only when it is faster by more than `margin`
// and `min_gain_ms`: the table then changes only what was measured to
// matter.
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

// A conv2d layer to tune alone.
struct ConvLayer {
  std::vector<uint32_t> input, filter;  // in attrs' layouts
  ops::Conv2dAttrs attrs;
  bool bias = false;
  std::string label;                    // where it comes from, for the report
};

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

// Measures every layer's candidates as one-op graphs on a cpu context. The
// process's tuning table is restored afterwards.
TuneResult Tune(const std::vector<ConvLayer>& layers, const TuneOptions& options);

// A whole graph, built on demand (it is compiled once per candidate round).
struct GraphSource {
  std::string name;
  std::function<MLGraph(MLContext&)> build;
};

struct GraphCheck {
  std::string name;
  double model_ms = 0, tuned_ms = 0;  // whole dispatch, median, interleaved
};

// Measures the conv2d layers of each graph where they run: round i compiles
// the whole graph with every layer forced to its i-th candidate (the model's
// where it has fewer), the rounds' dispatches run interleaved, and each
// layer's candidates are compared by their steps' profiled times, so a layer
// sees the caches as the layers before it leave them. Then the graph with
// the chosen table is timed against the model's choices (`checks`).
TuneResult TuneGraphs(const std::vector<GraphSource>& graphs, const TuneOptions& options,
                      std::vector<GraphCheck>* checks);

}  // namespace webnn::qos
