// Arena planning: intermediate tensors of a compiled graph share one buffer,
// placed by lifetime so that tensors alive at the same time never overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace webnn::memory {

struct BufferLifetime {
  uint64_t bytes = 0;
  uint32_t first_use = 0;  // step that writes it
  uint32_t last_use = 0;   // last step that reads it (inclusive)
};

struct ArenaPlan {
  std::vector<uint64_t> offsets;  // per buffer, aligned to kArenaAlignment
  uint64_t total_bytes = 0;
};

// 64 bytes: a cache line and a full AVX-512 vector.
inline constexpr uint64_t kArenaAlignment = 64;

// Greedy best-fit by decreasing size (as TFLite's and XNNPACK's planners do);
// optimal in practice for chain-like graphs.
ArenaPlan PlanArena(const std::vector<BufferLifetime>& buffers);

}  // namespace webnn::memory
