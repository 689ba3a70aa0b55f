// Builds without file I/O (-Dfile_io=false): no stored profiles; every
// context uses the built-in default.
#include <stdexcept>

#include "qos/profile_file.h"

namespace webnn::qos {

std::string MachineKey(const std::string& device_description) { return device_description; }
std::filesystem::path ProfileDirectory() { return {}; }
std::filesystem::path ProfilePath(const std::filesystem::path& directory, const std::string& device, unsigned threads) {
  return directory / ("qos-" + device + "-" + std::to_string(threads) + "t.json");
}
void SaveProfile(const Profile&, const std::filesystem::path&) {
  throw std::runtime_error("this build of webnn has no file I/O (-Dfile_io=false)");
}
std::optional<Profile> LoadProfile(const std::filesystem::path&, std::string* why_not) {
  *why_not = "this build has no file I/O";
  return std::nullopt;
}
Profile ProfileFor(const std::string& device, const std::string& machine, unsigned threads, std::string* status) {
  *status = "uncalibrated: built-in default (this build has no file I/O)";
  return DefaultProfile(device, machine, threads);
}

}  // namespace webnn::qos
