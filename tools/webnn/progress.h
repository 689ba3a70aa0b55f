// Progress of a long CLI job on stderr: a bar redrawn in place on a terminal,
// a line every few seconds otherwise (logs, CI). Silent for jobs that end
// within the first second, so short runs print nothing extra.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "io/webnn_graph.h"

namespace webnn::cli {

class Progress {
 public:
  // `total` 0: the amount is unknown; only the elapsed time is shown.
  Progress(std::string label, uint64_t total, std::string unit, std::FILE* out = stderr);
  ~Progress();  // Done()
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` of `total` so far; `phase` (optional) says what is happening now.
  void Update(uint64_t done, const std::string& phase = "");
  void SetTotal(uint64_t total) { total_ = total; }
  // Ends the bar (a final line if anything was shown).
  void Done();

 private:
  using Clock = std::chrono::steady_clock;
  void Show(bool final);

  std::string label_, unit_, phase_;
  uint64_t total_ = 0, done_ = 0;
  std::FILE* out_;
  bool tty_;
  bool shown_ = false, finished_ = false;
  Clock::time_point start_, last_shown_;
};

// Loads a graph file with a Progress bar (shown only when loading is slow):
// `webnn run` and `webnn oracle` load models this way.
io::LoadedGraph LoadWithProgress(const MLContext& context, const std::string& graph_path, io::GraphLoadOptions load);

}  // namespace webnn::cli
