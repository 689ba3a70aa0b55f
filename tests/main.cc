// Catch2's main with one option of ours: --device, the device the [device]
// tests run on (test_util.h, DeviceUnderTest()).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "test_util.h"

int main(int argc, char* argv[]) {
  using webnn::MLDeviceType;
  Catch::Session session;
  std::string device_name;
  session.cli(session.cli() | Catch::clara::Opt(device_name, "cpu|gpu|reference")["--device"](
                                  "the device the [device] tests run on (default: $WEBNN_TEST_DEVICE, else cpu)"));
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

  const char* env = std::getenv("WEBNN_TEST_DEVICE");
  if (device_name.empty()) device_name = env && *env ? env : "cpu";
  const std::optional<MLDeviceType> device = webnn::test::ParseDeviceName(device_name);
  if (!device) {
    std::fprintf(stderr, "webnn_tests: unknown device '%s' (cpu, gpu or reference)\n", device_name.c_str());
    return 2;
  }
  const Catch::ConfigData& config = session.configData();
  const bool only_listing = config.showHelp || config.listTests || config.listTestNamesOnly || config.listTags ||
                            config.listReporters;
  // The reference and cpu devices always exist; a missing gpu (no Vulkan
  // device, or a build without it) is a skip for meson (exit code 77).
  // (ML::devices() would do too, now that the cpu device's description
  // keeps WEBNN_CPU_MAX_TARGET's cap; createContext opens only the gpu.)
  if (!only_listing && *device == MLDeviceType::kGpu) {
    try {
      webnn::ML::createContext({.device = *device});
    } catch (const webnn::NotSupportedError& e) {
      std::printf("webnn_tests: no gpu device: %s\n", e.what());
      return 77;
    }
  }
  webnn::test::SetDeviceUnderTest(*device);

  const int result = session.run();
  const std::string unsupported = webnn::test::UnsupportedSummary();
  if (!unsupported.empty()) std::printf("%s", unsupported.c_str());
  return result;
}
