// What the microbenchmark engine measured, on disk: calibrated profiles and
// the cpu device's tuning table.
//
// Calibrated profiles: one JSON file per device and thread count,
// in $WEBNN_QOS_DIR, else $XDG_CACHE_HOME/webnn, else ~/.cache/webnn. A
// profile is used only on the machine and engine version it was measured
// with (its `machine` and `engine_version` must match), otherwise the
// built-in default stands, flagged as uncalibrated. Builds without file I/O
// (-Dfile_io=false) always use the default.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "ops/cpu/tuning.h"
#include "qos/cost_model.h"

namespace webnn::qos {

// What a profile is keyed by besides device, engine version and threads:
// the device's description (SIMD target, GPU name) and the host CPU's model
// (from /proc/cpuinfo where there is one), since hosts with the same SIMD
// target differ (Zen 4 splits a 512-bit FMA in two; Zen 5 does not).
std::string MachineKey(const std::string& device_description);

std::filesystem::path ProfileDirectory();
std::filesystem::path ProfilePath(const std::filesystem::path& directory, const std::string& device, unsigned threads);

// Throws std::runtime_error naming the path when it cannot be written.
void SaveProfile(const Profile& profile, const std::filesystem::path& path);
// nullopt with `why_not` set when the file is missing or unreadable.
std::optional<Profile> LoadProfile(const std::filesystem::path& path, std::string* why_not);

// The profile a context on `device` (described as `machine`) with `threads`
// uses: the stored one if it matches, else the default. `status` says which
// ("calibrated 2026-11-26 ..." or why the default is used).
Profile ProfileFor(const std::string& device, const std::string& machine, unsigned threads, std::string* status);

// Tuning tables (`webnn tune`, ops/cpu/tuning.h): one per machine, at
// $WEBNN_TUNING_FILE, else tune-cpu.json in ProfileDirectory(). A table is
// used only on the machine (MachineKey of the cpu device: its SIMD target
// and the CPU model) and engine version it was measured with.
std::filesystem::path TuningPath();
// Throws std::runtime_error naming the path when it cannot be written.
void SaveTuningTable(const ops::cpu::TuningTable& table, const std::filesystem::path& path);
std::optional<ops::cpu::TuningTable> LoadTuningTable(const std::filesystem::path& path, std::string* why_not);
// Makes the stored table the process's (ops::cpu::SetTuningTable) when it
// matches `machine` and this engine version, else none; WEBNN_TUNING=off
// installs none. Returns what it did, for the log.
std::string InstallTuningTable(const std::string& machine);

}  // namespace webnn::qos
