#include "memory/arena.h"

#include <algorithm>
#include <numeric>

namespace webnn::memory {

namespace {
uint64_t AlignUp(uint64_t v) { return (v + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }
bool Overlaps(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first_use <= b.last_use && b.first_use <= a.last_use;
}
}  // namespace

ArenaPlan PlanArena(const std::vector<BufferLifetime>& buffers) {
  ArenaPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });
  std::vector<size_t> placed;
  for (size_t idx : order) {
    const BufferLifetime& buf = buffers[idx];
    const uint64_t size = AlignUp(std::max<uint64_t>(buf.bytes, 1));
    // Occupied intervals of live-overlapping buffers, sorted by offset.
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (size_t p : placed)
      if (Overlaps(buf, buffers[p])) busy.emplace_back(plan.offsets[p], plan.offsets[p] + AlignUp(std::max<uint64_t>(buffers[p].bytes, 1)));
    std::sort(busy.begin(), busy.end());
    // Best fit: the smallest gap that holds `size`; else after the last.
    uint64_t best = UINT64_MAX, best_gap = UINT64_MAX, cursor = 0;
    for (const auto& [begin, end] : busy) {
      if (begin > cursor) {
        const uint64_t gap = begin - cursor;
        if (gap >= size && gap < best_gap) {
          best_gap = gap;
          best = cursor;
        }
      }
      cursor = std::max(cursor, end);
    }
    if (best == UINT64_MAX) best = cursor;
    plan.offsets[idx] = best;
    plan.total_bytes = std::max(plan.total_bytes, best + size);
    placed.push_back(idx);
  }
  return plan;
}

}  // namespace webnn::memory
