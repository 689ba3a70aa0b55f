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
  if (!only_listing) {
    bool available = false;
    for (const webnn::MLDeviceInfo& d : webnn::ML::devices()) available |= d.type == *device;
    if (!available) {
      std::printf("webnn_tests: device '%s' is not available in this build or on this machine\n",
                  device_name.c_str());
      // The reference and cpu devices always exist; a missing gpu (no Vulkan
      // device, or a build without it) is a skip for meson (exit code 77).
      return *device == MLDeviceType::kGpu ? 77 : 1;
    }
  }
  webnn::test::SetDeviceUnderTest(*device);

  const int result = session.run();
  const std::string unsupported = webnn::test::UnsupportedSummary();
  if (!unsupported.empty()) std::printf("%s", unsupported.c_str());
  return result;
}
