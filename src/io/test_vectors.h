// Runners for the WPT-derived test-vector files (tests/data/wpt, the format of
// shared/conformance/FORMAT.md) and validation-case files (VALIDATION-FORMAT.md).
// Used by `webnn conformance` and by the test suite.
#pragma once

#include <string>
#include <vector>

#include "webnn/webnn.h"

namespace webnn::io {

enum class VectorFileKind { kConformance, kValidation };

struct VectorReport {
  VectorFileKind kind = VectorFileKind::kConformance;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int unsupported = 0;  // of the skipped: refused by the device (VectorOptions::allow_unsupported)
  std::vector<std::string> failures;  // one line per failure
  std::vector<std::string> skips;     // one line per skip, with its reason
  std::vector<std::string> unsupported_reasons;  // one per unsupported case: "NotSupportedError: ..."
};

// A case expected to fail, with the reason (tests/data/known_failures.json).
struct KnownFailure {
  std::string file;    // file name, e.g. "subgraph.json"
  std::string test;    // case name
  std::vector<std::string> devices;  // device names it applies to; empty = all
  std::string reason;
};
std::vector<KnownFailure> LoadKnownFailures(const std::string& path);

struct VectorOptions {
  MLDeviceType device = MLDeviceType::kReference;
  std::string name_filter;  // run only cases whose name contains this
  // Listed failures count as skips with their reason; a listed case that
  // passes is reported as a failure, so the list cannot go stale.
  std::vector<KnownFailure> known_failures;
  // For a device that does not cover every op and data type yet (gpu): a
  // conformance case it refuses (IsUnsupportedError) counts as skipped, and
  // in `unsupported`, with the reason, instead of failed. Off for the
  // reference and cpu devices, which claim full coverage.
  bool allow_unsupported = false;
};

// Whether `e` says that a device refused a graph it does not support rather
// than that the graph is invalid: NotSupportedError, or a TypeError for a
// data type outside the device's opSupportLimits() ("data type X is not
// supported"). Meaningful for a graph that another device built, since the
// validation rules are shared.
bool IsUnsupportedError(const MLException& e);

// Reads `path`, tells the two formats apart by their content and runs every
// case. Throws std::runtime_error if the file cannot be read or parsed.
VectorReport RunVectorFile(const std::string& path, const VectorOptions& options);

}  // namespace webnn::io
