#include "qos/profile_file.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "webnn/webnn.h"

namespace webnn::qos {

namespace {

using nlohmann::json;

// NaN is not JSON: unmeasured grid points are written as null.
json Number(double v) { return std::isnan(v) ? json(nullptr) : json(v); }
double Number(const json& j) { return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN(); }

// Writes a temporary file beside `path` and renames it: readers (another
// process creating a context) never see half a file.
void WriteAtomically(const json& j, const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << j.dump(1) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
}

// Reads a JSON file of `format` with `read`; nullopt and `why_not` when the
// file is missing, not JSON, not that format, or `read` throws (a member
// missing or of the wrong type). `what` names the file's kind, `remedy` the
// command that writes one.
template <typename T, typename Read>
std::optional<T> ReadJsonFile(const std::filesystem::path& path, const std::string& format, const std::string& what,
                              const std::string& remedy, std::string* why_not, const Read& read) {
  std::ifstream in(path);
  if (!in) {
    *why_not = "no " + what + " at " + path.string() + " (" + remedy + " writes one)";
    return std::nullopt;
  }
  try {
    const json j = json::parse(in);
    if (j.value("format", "") != format) throw std::runtime_error("not a " + format + " file");
    return read(j);
  } catch (const std::exception& e) {
    *why_not = what + " " + path.string() + " is unreadable (" + e.what() + "); run " + remedy + " again";
    return std::nullopt;
  }
}

}  // namespace

std::string MachineKey(const std::string& device_description) {
  static const std::string cpu = [] {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
        return line.substr(line.find(':') + 2);
    return std::string();
  }();
  return cpu.empty() ? device_description : device_description + " on " + cpu;
}

std::filesystem::path ProfileDirectory() {
  if (const char* dir = std::getenv("WEBNN_QOS_DIR"); dir && *dir) return dir;
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) return std::filesystem::path(cache) / "webnn";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "webnn";
  return std::filesystem::path(".webnn-cache");
}

std::filesystem::path ProfilePath(const std::filesystem::path& directory, const std::string& device, unsigned threads) {
  return directory / ("qos-" + device + "-" + std::to_string(threads) + "t.json");
}

void SaveProfile(const Profile& p, const std::filesystem::path& path) {
  json j;
  j["format"] = "webnn-qos-profile/1";
  j["device"] = p.device;
  j["machine"] = p.machine;
  j["engineVersion"] = p.engine_version;
  j["threads"] = p.threads;
  j["calibrated"] = p.calibrated;
  j["dispatchMs"] = p.dispatch_ms;
  j["stepMs"] = p.step_ms;
  j["dramGBps"] = p.dram_gbps;
  j["llcBytes"] = p.llc_bytes;
  j["calibrationSeconds"] = p.calibration_seconds;
  json grids = json::object();
  for (const auto& [cls, g] : p.grids) {
    json values = json::array();
    for (double v : g.ln_ns) values.push_back(Number(v));
    grids[cls] = {{"axesLog2", g.axes}, {"lnNsPerUnit", values}, {"floorMs", g.floor_ms}};
  }
  j["grids"] = grids;
  json lines = json::object();
  for (const auto& [op, line] : p.polyfill_lines) lines[op] = {line.first, line.second};
  j["polyfillLines"] = lines;
  WriteAtomically(j, path);
}

std::optional<Profile> LoadProfile(const std::filesystem::path& path, std::string* why_not) {
  return ReadJsonFile<Profile>(path, "webnn-qos-profile/1", "profile", "`webnn calibrate`", why_not, [](const json& j) {
    Profile p;
    p.device = j.at("device").get<std::string>();
    p.machine = j.at("machine").get<std::string>();
    p.engine_version = j.at("engineVersion").get<std::string>();
    p.threads = j.at("threads").get<unsigned>();
    p.calibrated = j.at("calibrated").get<bool>();
    p.dispatch_ms = j.at("dispatchMs").get<double>();
    p.step_ms = j.at("stepMs").get<double>();
    p.dram_gbps = j.value("dramGBps", 0.0);
    p.llc_bytes = j.value("llcBytes", 0.0);
    p.calibration_seconds = j.value("calibrationSeconds", 0.0);
    for (const auto& [cls, g] : j.at("grids").items()) {
      Grid grid;
      grid.axes = g.at("axesLog2").get<std::vector<std::vector<double>>>();
      for (const json& v : g.at("lnNsPerUnit")) grid.ln_ns.push_back(Number(v));
      grid.floor_ms = g.value("floorMs", 0.0);
      if (grid.ln_ns.size() != grid.points())
        throw std::runtime_error("grid '" + cls + "' has the wrong number of values");
      for (const auto& axis : grid.axes)
        if (axis.empty() || !std::is_sorted(axis.begin(), axis.end()))
          throw std::runtime_error("grid '" + cls + "' has an empty or unsorted axis");
      if (grid.axes.size() > 5) throw std::runtime_error("grid '" + cls + "' has more than 5 axes");
      p.grids[cls] = std::move(grid);
    }
    const json lines = j.value("polyfillLines", json::object());  // (items() of a temporary would dangle)
    for (const auto& [op, line] : lines.items())
      p.polyfill_lines[op] = {line.at(0).get<double>(), line.at(1).get<double>()};
    return p;
  });
}

Profile ProfileFor(const std::string& device, const std::string& machine, unsigned threads, std::string* status) {
  const std::filesystem::path path = ProfilePath(ProfileDirectory(), device, threads);
  std::string why_not;
  if (std::optional<Profile> p = LoadProfile(path, &why_not)) {
    if (p->machine != machine)
      why_not = "the profile at " + path.string() + " was measured on '" + p->machine + "'";
    else if (p->engine_version != ML::version())
      why_not = "the profile at " + path.string() + " is from engine version " + p->engine_version;
    else {
      *status = "calibrated (" + path.string() + ")";
      return *p;
    }
  }
  *status = "uncalibrated: built-in default; " + why_not;
  return DefaultProfile(device, machine, threads);
}

// ---- tuning tables ----

std::filesystem::path TuningPath() {
  if (const char* file = std::getenv("WEBNN_TUNING_FILE"); file && *file) return file;
  return ProfileDirectory() / "tune-cpu.json";
}

void SaveTuningTable(const ops::cpu::TuningTable& t, const std::filesystem::path& path) {
  json j;
  j["format"] = "webnn-tuning-table/1";
  j["device"] = "cpu";
  j["machine"] = t.machine;
  j["engineVersion"] = t.engine_version;
  j["threads"] = t.threads;
  j["tuned"] = t.tuned;
  j["choices"] = t.choices;
  j["measuredMs"] = t.measured_ms;
  WriteAtomically(j, path);
}

std::optional<ops::cpu::TuningTable> LoadTuningTable(const std::filesystem::path& path, std::string* why_not) {
  return ReadJsonFile<ops::cpu::TuningTable>(
      path, "webnn-tuning-table/1", "tuning table", "`webnn tune`", why_not, [](const json& j) {
        ops::cpu::TuningTable t;
        t.machine = j.at("machine").get<std::string>();
        t.engine_version = j.at("engineVersion").get<std::string>();
        t.threads = j.at("threads").get<unsigned>();
        t.tuned = j.value("tuned", "");
        t.choices = j.at("choices").get<std::map<std::string, std::string>>();
        t.measured_ms =
            j.value("measuredMs", json::object()).get<std::map<std::string, std::map<std::string, double>>>();
        return t;
      });
}

std::string InstallTuningTable(const std::string& machine) {
  if (const char* env = std::getenv("WEBNN_TUNING"); env && std::string_view(env) == "off") {
    ops::cpu::SetTuningTable(nullptr);
    return "cpu tuning: off (WEBNN_TUNING=off); the built-in model chooses";
  }
  const std::filesystem::path path = TuningPath();
  std::string why_not;
  std::optional<ops::cpu::TuningTable> t = LoadTuningTable(path, &why_not);
  if (t && t->machine != machine)
    why_not = "the tuning table at " + path.string() + " was measured on '" + t->machine + "'";
  else if (t && t->engine_version != ML::version())
    why_not = "the tuning table at " + path.string() + " is from engine version " + t->engine_version;
  else if (t) {
    const std::string status = "cpu tuning: " + std::to_string(t->choices.size()) + " layer choices from " +
                               path.string() + " (tuned " + t->tuned + ")";
    ops::cpu::SetTuningTable(std::make_shared<const ops::cpu::TuningTable>(std::move(*t)));
    return status;
  }
  ops::cpu::SetTuningTable(nullptr);
  return "cpu tuning: none, the built-in model chooses; " + why_not;
}

}  // namespace webnn::qos
