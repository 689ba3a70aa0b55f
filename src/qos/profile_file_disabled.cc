// Builds without file I/O (-Dfile_io=false): no stored profiles or tuning
// tables; every context uses the built-in defaults.
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

std::filesystem::path TuningPath() { return {}; }
void SaveTuningTable(const ops::cpu::TuningTable&, const std::filesystem::path&) {
  throw std::runtime_error("this build of webnn has no file I/O (-Dfile_io=false)");
}
std::optional<ops::cpu::TuningTable> LoadTuningTable(const std::filesystem::path&, std::string* why_not) {
  *why_not = "this build has no file I/O";
  return std::nullopt;
}
std::string InstallTuningTable(const std::string&) { return "cpu tuning: none (this build has no file I/O)"; }

}  // namespace webnn::qos
