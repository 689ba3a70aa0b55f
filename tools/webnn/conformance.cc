// webnn conformance: runs WPT-format conformance and validation vector files.
#include <cstdio>
#include <stdexcept>

#include "commands.h"
#include "io/test_vectors.h"

namespace webnn::cli {
namespace {

MLDeviceType ParseDevice(const std::string& s) {
  if (s == "reference") return MLDeviceType::kReference;
  if (s == "cpu") return MLDeviceType::kCpu;
  if (s == "gpu") return MLDeviceType::kGpu;
  if (s == "auto") return MLDeviceType::kAuto;
  throw std::invalid_argument("unknown device '" + s + "' (reference, cpu, gpu, auto)");
}

}  // namespace

int Conformance(const Args& args) {
  io::VectorOptions options;
  bool verbose = false;
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::printf(
          "usage: webnn conformance [--device D] [--filter TEXT] [--allow-unsupported] [--verbose] FILE...\n"
          "Runs each file (conformance vectors or validation cases, told apart by content)\n"
          "and prints one line per failure and a closing line 'N passed, N failed, N skipped'.\n"
          "  --device D     reference (default), cpu, gpu or auto\n"
          "  --filter TEXT  only cases whose name contains TEXT\n"
          "  --known-failures FILE  cases listed there (with a reason) count as skipped\n"
          "                 (tests/data/known_failures.json is the project's list)\n"
          "  --allow-unsupported  cases the device refuses (NotSupportedError, or a data type\n"
          "                 outside its opSupportLimits()) count as skipped, not failed\n"
          "  --verbose      also print skipped cases with their reasons\n");
      return 0;
    }
    if (a == "--device" && i + 1 < args.size()) options.device = ParseDevice(args[++i]);
    else if (a == "--filter" && i + 1 < args.size()) options.name_filter = args[++i];
    else if (a == "--known-failures" && i + 1 < args.size()) options.known_failures = io::LoadKnownFailures(args[++i]);
    else if (a == "--allow-unsupported") options.allow_unsupported = true;
    else if (a == "--verbose" || a == "-v") verbose = true;
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option " + a);
    else files.push_back(a);
  }
  if (files.empty()) throw std::invalid_argument("no files given (see --help)");
  int passed = 0, failed = 0, skipped = 0, unsupported = 0;
  for (const std::string& file : files) {
    io::VectorReport r;
    try {
      r = io::RunVectorFile(file, options);
    } catch (const std::exception& e) {
      std::printf("FAIL %s | cannot run: %s\n", file.c_str(), e.what());
      ++failed;
      continue;
    }
    for (const auto& line : r.failures) std::printf("FAIL %s | %s\n", file.c_str(), line.c_str());
    if (verbose)
      for (const auto& line : r.skips) std::printf("SKIP %s | %s\n", file.c_str(), line.c_str());
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    unsupported += r.unsupported;
  }
  std::printf("%d passed, %d failed, %d skipped", passed, failed, skipped);
  if (options.allow_unsupported) std::printf(" (%d unsupported on the device)", unsupported);
  std::printf("\n");
  return failed == 0 ? 0 : 1;
}

}  // namespace webnn::cli
