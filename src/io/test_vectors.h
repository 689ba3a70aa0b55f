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
  int missing = 0;      // conformance cases without candidate files (VectorOptions::candidate_dir)
  std::vector<std::string> missing_cases;  // one line per missing case, naming the files
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
  // Another implementation's outputs to score instead of running a device:
  // conformance case outputs read from <candidate_dir>/<CaseDirectory>/
  // <SanitizedName(output)>.npy (docs/ORACLE.md). A case with a file missing
  // is neither passed nor failed but missing.
  std::string candidate_dir;
  // Where the device's outputs are written under those same names.
  std::string write_candidates_dir;
  // Where each case's inputs (constants included) are written, as
  // <dir>/<CaseDirectory>/inputs/<SanitizedName(input)>.npy.
  std::string write_inputs_dir;
};

// The stable names of a case's files: "<vector file stem>/<index>-<case
// name>", index being the case's 0-based position in the file's "tests" and
// the name passed through SanitizedName (every character but [A-Za-z0-9._-]
// becomes '_', at most 120 characters).
std::string CaseDirectory(const std::string& vector_file, size_t index, const std::string& case_name);
std::string SanitizedName(const std::string& name);

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
