// The strided box copy and helpers of strided_copy.h.
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "core/shape.h"
#include "core/strings.h"
#include "ops/gpu/strided_copy.h"
#include "webnn/types.h"

namespace webnn::ops::gpu {

// Element size in bits: the variant suffix of transpose_copy and of the other
// bit-moving shaders of the data-movement families.
uint32_t ElementBits(DataType type) {
  const int bits = BitsPerElement(type);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    throw NotSupportedError(core::StrCat("gpu device: no data-movement shader for ", ToString(type)));
  return static_cast<uint32_t>(bits);
}

// Row-major element strides of `shape` as signed values.
std::vector<int64_t> ContiguousStrides(const std::vector<uint32_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = stride;
    stride *= shape[i];
  }
  return s;
}

namespace {

struct Axis {
  uint32_t size;
  int64_t src, dst;  // element strides
  uint32_t wrap;     // 0: none, else size is a multiple of it (tile)
};

// Lowest and highest element (inclusive) the box touches in one buffer.
std::pair<int64_t, int64_t> Span(const std::vector<Axis>& axes, int64_t offset, bool src) {
  int64_t lo = offset, hi = offset;
  for (const Axis& a : axes) {
    const int64_t step = (src && a.wrap ? a.wrap : a.size) - 1;
    const int64_t reach = step * (src ? a.src : a.dst);
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

void Emit(GpuPlan& plan, uint32_t bits, GpuBinding src, GpuBinding dst, const std::vector<Axis>& axes,
          int64_t src_offset, int64_t dst_offset, int64_t limit) {
  const auto [src_lo, src_hi] = Span(axes, src_offset, true);
  const auto [dst_lo, dst_hi] = Span(axes, dst_offset, false);
  const bool src_fits = src_hi - src_lo < limit, dst_fits = dst_hi - dst_lo < limit;
  if (!src_fits || !dst_fits) {
    // Halve the axis that spreads the too-wide buffer most; a tiled axis is
    // first split at a repetition boundary, so that each piece stays a plain
    // or tiled axis.
    size_t pick = 0;
    int64_t widest = -1;
    for (size_t i = 0; i < axes.size(); ++i) {
      const Axis& a = axes[i];
      if (a.size < 2) continue;
      const int64_t reach = src_fits ? (a.size - 1) * std::abs(a.dst)
                                     : ((a.wrap ? a.wrap : a.size) - 1) * std::abs(a.src);
      if (reach > widest) widest = reach, pick = i;
    }
    const Axis& a = axes[pick];
    const uint32_t half = a.wrap ? (a.size / a.wrap / 2) * a.wrap : a.size / 2;
    std::vector<Axis> first = axes, second = axes;
    first[pick].size = half;
    second[pick].size = a.size - half;
    for (Axis* p : {&first[pick], &second[pick]})
      if (p->wrap == p->size) p->wrap = 0;
    Emit(plan, bits, src, dst, first, src_offset, dst_offset, limit);
    // A tiled axis restarts at a repetition boundary: its source offset stays.
    Emit(plan, bits, src, dst, second, src_offset + (a.wrap ? 0 : int64_t{half} * a.src),
         dst_offset + int64_t{half} * a.dst, limit);
    return;
  }

  uint64_t n = 1;
  bool wraps = false, dst_contiguous = true;
  int64_t expected = 1;
  for (size_t i = axes.size(); i-- > 0;) {
    n *= axes[i].size;
    wraps |= axes[i].wrap != 0;
    dst_contiguous &= axes[i].dst == expected || axes[i].size == 1;
    expected *= axes[i].size;
  }
  GpuDispatch d;
  d.shader = core::StrCat("transpose_copy.b", bits);
  // Sub-range bindings: each dispatch binds only what it touches, which keeps
  // bindings under maxStorageBufferRange and lets the device see that the
  // dispatches of concat (or split) write disjoint ranges and need no barrier.
  d.bindings = {src.Range(src_lo, src_hi - src_lo + 1), dst.Range(dst_lo, dst_hi - dst_lo + 1)};
  d.params = {Count32(n), static_cast<uint32_t>(axes.size()), (wraps ? 1u : 0u) | (dst_contiguous ? 2u : 0u),
              static_cast<uint32_t>(src_offset - src_lo), static_cast<uint32_t>(dst_offset - dst_lo)};
  d.params.resize(5 + 4 * core::kMaxRank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    d.params[5 + i] = axes[i].size;
    d.params[13 + i] = static_cast<uint32_t>(axes[i].src);  // two's complement for negative strides
    d.params[21 + i] = static_cast<uint32_t>(axes[i].dst);
    d.params[29 + i] = axes[i].wrap ? axes[i].wrap : axes[i].size;
  }
  d.groups = GridFor(n);
  plan.dispatches.push_back(std::move(d));
}

}  // namespace

// Appends the dispatches that copy the box `shape`: element c goes to
// dst_offset + sum(c[d] * dst_strides[d]) from src_offset + sum((c[d] % wrap[d])
// * src_strides[d]) (`wrap` empty: no wrapping). Size-1 axes are dropped and
// axes that are contiguous in both buffers merged first, so that the shader
// does as few divisions as possible (a concat along axis 1 of [N, C, H, W]
// becomes a 2-d copy). A box wider than one binding may span is split into
// several dispatches.
void StridedCopy(GpuPlan& plan, uint64_t max_binding_bytes, DataType type, GpuBinding src, GpuBinding dst,
                 const std::vector<uint32_t>& shape, const std::vector<int64_t>& src_strides, int64_t src_offset,
                 const std::vector<int64_t>& dst_strides, int64_t dst_offset, const std::vector<uint32_t>& wrap) {
  std::vector<Axis> axes;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const uint32_t w = !wrap.empty() && wrap[d] < shape[d] ? wrap[d] : 0;
    axes.push_back({shape[d], src_strides[d], dst_strides[d], w});
  }
  // Merge outer axis i into inner axis i + 1 where both buffers step through
  // them as one axis.
  std::vector<Axis> merged;
  for (size_t i = axes.size(); i-- > 0;) {
    const Axis& a = axes[i];
    if (!merged.empty()) {
      Axis& inner = merged.back();
      const int64_t size = inner.size;
      if (a.wrap == 0 && inner.wrap == 0 && a.src == inner.src * size && a.dst == inner.dst * size &&
          uint64_t{inner.size} * a.size <= UINT32_MAX) {
        inner.size *= a.size;
        continue;
      }
    }
    merged.push_back(a);
  }
  std::reverse(merged.begin(), merged.end());
  if (merged.empty()) merged.push_back({1, 1, 1, 0});
  if (merged.size() > core::kMaxRank) throw NotSupportedError("gpu device: strided copy of rank above 8");
  const uint32_t bits = ElementBits(type);
  // 4 KiB of slack covers the binding's alignment (as elementwise_binary.cc).
  const int64_t limit = std::max<int64_t>(static_cast<int64_t>((max_binding_bytes - 4096) / (bits / 8)), 1);
  Emit(plan, bits, src, dst, merged, src_offset, dst_offset, limit);
}

}  // namespace webnn::ops::gpu
