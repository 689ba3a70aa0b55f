// The WPT suites as data: every conformance case (and the pending ones from open
// WPT pull requests) on the reference device and on the device under test
// (--device), and every validation case.
#include <filesystem>

#include "io/test_vectors.h"
#include "test_util.h"

using namespace webnn;

namespace {

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(WEBNN_TEST_DATA_DIR) + "/" + dir))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

void RunAll(const std::vector<std::string>& files, MLDeviceType device) {
  io::VectorOptions options;
  options.device = device;
  options.known_failures = io::LoadKnownFailures(std::string(WEBNN_TEST_DATA_DIR) + "/known_failures.json");
  // The reference and cpu devices claim every op and data type; a device
  // that does not yet (gpu) has the cases it refuses counted as unsupported.
  options.allow_unsupported = test::MayLeaveOpsOut(device);
  int passed = 0, failed = 0, unsupported = 0;
  for (const std::string& f : files) {
    io::VectorReport r = io::RunVectorFile(f, options);
    INFO(f);
    for (const std::string& line : r.failures) FAIL_CHECK(line);
    CHECK(r.failed == 0);
    passed += r.passed;
    failed += r.failed;
    unsupported += r.unsupported;
    for (const std::string& reason : r.unsupported_reasons) test::RecordUnsupported(device, reason);
  }
  CHECK(passed + unsupported > 0);  // the files were found and read
  if (options.allow_unsupported) {
    const int total = passed + failed + unsupported;
    WARN(ToString(device) << ": " << passed << " of " << total << " conformance cases pass ("
                          << (total ? 100.0 * passed / total : 0.0) << "%); " << failed << " failed, " << unsupported
                          << " unsupported");
  }
}

}  // namespace

TEST_CASE("WPT conformance suite passes on the reference device", "[conformance][reference]") {
  RunAll(Files("wpt"), MLDeviceType::kReference);
}

TEST_CASE("pending WPT conformance cases pass on the reference device", "[conformance][reference]") {
  RunAll(Files("wpt-pending"), MLDeviceType::kReference);
}

TEST_CASE("WPT conformance suite passes on the device under test", "[conformance][device]") {
  RunAll(Files("wpt"), test::DeviceUnderTest());
}

TEST_CASE("pending WPT conformance cases pass on the device under test", "[conformance][device]") {
  RunAll(Files("wpt-pending"), test::DeviceUnderTest());
}

TEST_CASE("WPT validation suite passes", "[validation]") {
  io::VectorOptions options;
  int passed = 0, skipped = 0;
  for (const std::string& f : Files("wpt-validation")) {
    io::VectorReport r = io::RunVectorFile(f, options);
    INFO(f);
    for (const std::string& line : r.failures) FAIL_CHECK(line);
    CHECK(r.failed == 0);
    passed += r.passed;
    skipped += r.skipped;
  }
  // 23,599 cases: all pass but the few that depend on limits we chose
  // differently or on JavaScript-only binding errors (each skip names its reason).
  CHECK(passed >= 23590);
  CHECK(skipped <= 5);
}
