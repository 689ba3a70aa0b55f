// Cold calibration of the cost model (`webnn calibrate`): one-op graphs at the
// points of every class's grid, built through the public API on the device
// and timed by the microbenchmark engine from their profiled step times.
// Every op of op_list.inc has a probe (ProbedClassOf), so every op is
// calibrated; a test checks that none is missing.
//
// Like src/io, this is a client of the public API that lives in the library
// (the CLI and the tests drive it); the estimator (cost_model.h) sits below
// the api layer and never calls back up.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "qos/cost_model.h"
#include "webnn/webnn.h"

namespace webnn::qos {

struct CalibrationOptions {
  MLDeviceType device = MLDeviceType::kCpu;
  unsigned threads = 0;  // the context's numThreads (0: all)
  // A coarse grid (each axis's first and last points) and fewer samples: for
  // tests, and a first profile in seconds.
  bool quick = false;
  // Only the classes whose name starts with one of these (empty: all).
  std::vector<std::string> only;
  // Called after each point: points done, points in all, the class measured.
  std::function<void(size_t done, size_t total, const std::string& cls)> progress;
};

Profile Calibrate(const CalibrationOptions& options);

// The class calibration measures op `op` (a WebNN operator name) in, "" when
// it has no probe.
std::string ProbedClassOf(const std::string& op);

}  // namespace webnn::qos
