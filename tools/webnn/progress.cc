#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <utility>

namespace webnn::cli {
namespace {

// Nothing before this (short jobs stay quiet); then a terminal bar is redrawn
// at most every kRedraw, and a non-terminal line is written every kLineEvery.
constexpr auto kQuiet = std::chrono::milliseconds(1000);
constexpr auto kRedraw = std::chrono::milliseconds(100);
constexpr auto kLineEvery = std::chrono::seconds(5);
constexpr int kBarWidth = 30;

}  // namespace

Progress::Progress(std::string label, uint64_t total, std::string unit, std::FILE* out)
    : label_(std::move(label)), unit_(std::move(unit)), total_(total), out_(out),
      tty_(isatty(fileno(out)) != 0), start_(Clock::now()) {}

Progress::~Progress() { Done(); }

void Progress::Update(uint64_t done, const std::string& phase) {
  done_ = done;
  if (!phase.empty()) phase_ = phase;
  const Clock::time_point now = Clock::now();
  if (now - start_ < kQuiet) return;
  if (shown_ && now - last_shown_ < (tty_ ? kRedraw : kLineEvery)) return;
  Show(false);
}

void Progress::Done() {
  if (finished_) return;
  finished_ = true;
  if (shown_) Show(true);
}

void Progress::Show(bool final) {
  last_shown_ = Clock::now();
  shown_ = true;
  const double seconds = std::chrono::duration<double>(last_shown_ - start_).count();
  std::string amount;
  if (total_ > 0) {
    const double fraction = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
    char text[96];
    std::snprintf(text, sizeof text, "%3.0f%% %llu/%llu %s", 100 * fraction, static_cast<unsigned long long>(done_),
                  static_cast<unsigned long long>(total_), unit_.c_str());
    amount = text;
    if (tty_) {
      const int filled = static_cast<int>(fraction * kBarWidth);
      amount = "[" + std::string(filled, '=') + std::string(kBarWidth - filled, ' ') + "] " + amount;
    }
  } else if (done_ > 0) {
    amount = std::to_string(done_) + " " + unit_;
  }
  const std::string phase = phase_.empty() ? "" : " (" + phase_ + ")";
  if (tty_) {
    // \x1b[K clears what a longer previous line left.
    std::fprintf(out_, "\r%s %s%s %.1f s\x1b[K%s", label_.c_str(), amount.c_str(), phase.c_str(), seconds,
                 final ? "\n" : "");
  } else {
    std::fprintf(out_, "%s: %s%s after %.1f s%s\n", label_.c_str(), amount.c_str(), phase.c_str(), seconds,
                 final ? ", done" : "");
  }
  std::fflush(out_);
}

io::LoadedGraph LoadWithProgress(const MLContext& context, const std::string& graph_path, io::GraphLoadOptions load) {
  Progress bar("loading " + std::filesystem::path(graph_path).filename().string(), 0, "");
  load.progress = [&bar](std::string_view phase, uint64_t done, uint64_t total) {
    bar.SetTotal(total);
    bar.Update(done, std::string(phase));
  };
  return io::LoadGraphFile(context, graph_path, load);
}

}  // namespace webnn::cli
