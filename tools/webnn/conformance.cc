// webnn conformance: runs WPT-format conformance and validation vector files.
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli_args.h"
#include "commands.h"
#include "io/test_vectors.h"
#include "progress.h"

namespace webnn::cli {
int Conformance(const Args& args) {
  io::VectorOptions options;
  bool verbose = false, fail_missing = false;
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::printf(
          "usage: webnn conformance [--device D] [--filter TEXT] [--allow-unsupported] [--verbose] FILE...\n"
          "       webnn conformance --candidate-dir DIR [--filter TEXT] [--verbose] FILE...\n"
          "Runs each file (conformance vectors or validation cases, told apart by content)\n"
          "and prints one line per failure and a closing line 'N passed, N failed, N skipped'.\n"
          "  --device D     reference (default), cpu, gpu or auto\n"
          "  --filter TEXT  only cases whose name contains TEXT\n"
          "  --known-failures FILE  cases listed there (with a reason) count as skipped\n"
          "                 (tests/data/known_failures.json is the project's list)\n"
          "  --allow-unsupported  cases the device refuses (NotSupportedError, or a data type\n"
          "                 outside its opSupportLimits()) count as skipped, not failed\n"
          "  --verbose      also print skipped and missing cases with their reasons\n"
          "Another implementation's outputs (docs/ORACLE.md), one .npy per case output at\n"
          "  DIR/<file stem>/<case index>-<case name>/<output>.npy\n"
          "(index: 0-based position in the file's \"tests\"; in names every character but\n"
          "[A-Za-z0-9._-] is '_'; int4/uint4 as int8/uint8, one value per byte):\n"
          "  --candidate-dir DIR     score the files there with WPT's tolerances instead of running a\n"
          "                          device; a case without its files is missing, not failed\n"
          "  --fail-missing          missing cases fail the run (exit 1) too\n"
          "  --write-candidates DIR  write the device's outputs under those names\n"
          "  --write-inputs DIR      write each case's inputs (constants too) as\n"
          "                          DIR/<file stem>/<case index>-<case name>/inputs/<input>.npy\n");
      return 0;
    }
    if (a == "--device" && i + 1 < args.size()) options.device = ParseDevice(args[++i]);
    else if (a == "--filter" && i + 1 < args.size()) options.name_filter = args[++i];
    else if (a == "--known-failures" && i + 1 < args.size()) options.known_failures = io::LoadKnownFailures(args[++i]);
    else if (a == "--allow-unsupported") options.allow_unsupported = true;
    else if (a == "--candidate-dir" && i + 1 < args.size()) options.candidate_dir = args[++i];
    else if (a == "--write-candidates" && i + 1 < args.size()) options.write_candidates_dir = args[++i];
    else if (a == "--write-inputs" && i + 1 < args.size()) options.write_inputs_dir = args[++i];
    else if (a == "--fail-missing") fail_missing = true;
    else if (a == "--verbose" || a == "-v") verbose = true;
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
    else files.push_back(a);
  }
  if (files.empty()) throw std::invalid_argument("no files given (see --help)");
  if (!options.candidate_dir.empty() && !options.write_candidates_dir.empty())
    throw std::invalid_argument("--candidate-dir scores files, --write-candidates writes them: give one");
  int passed = 0, failed = 0, skipped = 0, unsupported = 0, missing = 0;
  Progress progress("conformance", files.size(), "files");
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string& file = files[f];
    progress.Update(f, std::filesystem::path(file).stem().string());
    io::VectorReport r;
    try {
      r = io::RunVectorFile(file, options);
    } catch (const std::exception& e) {
      std::printf("FAIL %s | cannot run: %s\n", file.c_str(), e.what());
      ++failed;
      continue;
    }
    for (const auto& line : r.failures) std::printf("FAIL %s | %s\n", file.c_str(), line.c_str());
    if (verbose) {
      for (const auto& line : r.skips) std::printf("SKIP %s | %s\n", file.c_str(), line.c_str());
      for (const auto& line : r.missing_cases) std::printf("MISSING %s | %s\n", file.c_str(), line.c_str());
    }
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    unsupported += r.unsupported;
    missing += r.missing;
  }
  progress.Update(files.size());
  progress.Done();
  std::printf("%d passed, %d failed, %d skipped", passed, failed, skipped);
  if (!options.candidate_dir.empty()) std::printf(", %d missing", missing);
  if (options.allow_unsupported) std::printf(" (%d unsupported on the device)", unsupported);
  std::printf("\n");
  return failed == 0 && !(fail_missing && missing > 0) ? 0 : 1;
}

}  // namespace webnn::cli
