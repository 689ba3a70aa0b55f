// cpu kernels of scatterElements and scatterND, every data type (moved as 1,
// 2, 4 or 8-byte elements) with int32, uint32 or int64 indices resolved as the
// reference does (copy_util.h ClampIndex). The output starts as a copy of the
// input; updates are then written so that where indices repeat the last one in
// row-major order wins, as in the reference, whatever the thread split:
//
// scatterElements: [P, axis, Q]; updates of one (p, q) line can only collide
//   with each other, so tasks own disjoint (p, q-range) blocks and walk the
//   axis in order. Within a vector, lanes are distinct q: hardware scatters.
// scatterND: tuples are bucketed by the range of output slices they land in,
//   and each task applies one range's tuples in order; slices of 64 KiB or
//   more are instead copied one tuple at a time, each copy split over threads.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/scatter.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/copy-inl.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/scatter.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr size_t kIndexChunk = 4096;

// base[pos[k] * scale + k] = src[k] for k < n (one row of scatterElements).
template <typename T>
HWY_INLINE void ScatterRow(uint8_t* HWY_RESTRICT base, const uint32_t* HWY_RESTRICT pos, uint64_t scale,
                           const uint8_t* HWY_RESTRICT src, size_t n, bool fits_int32) {
  constexpr size_t E = sizeof(T);
  size_t k = 0;
  (void)fits_int32;  // unused on targets without scatters
#if WEBNN_COPY_TILES
  if constexpr (E >= 4) {
    if (fits_int32) {
      const hn::ScalableTag<T> d;
      const hn::RebindToSigned<decltype(d)> di;
      const hn::Rebind<int32_t, decltype(d)> d32;
      const size_t N = hn::Lanes(d);
      const auto vscale = hn::Set(d32, static_cast<int32_t>(scale));
      const auto iota = hn::Iota(d32, 0);
      for (; k + N <= n; k += N) {
        const auto p32 = hn::Add(hn::Mul(hn::LoadU(d32, reinterpret_cast<const int32_t*>(pos + k)), vscale), iota);
        hn::Vec<decltype(di)> vi;
        if constexpr (E == 4) vi = p32;
        else vi = hn::PromoteTo(di, p32);
        const auto v = hn::LoadU(d, reinterpret_cast<const T*>(src + k * E));
        hn::ScatterIndex(v, d, reinterpret_cast<T*>(base + k * E), vi);
      }
    }
  }
#endif
  for (; k < n; ++k) StoreRaw<T>(base + (pos[k] * scale + k) * E, LoadRaw<T>(src + k * E));
}

template <typename T>
void ScatterElementsOfSize(const TensorView& indices, const TensorView& updates, const TensorView& out, uint32_t axis,
                           core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint64_t outer = DimProduct(out.shape, 0, axis);
  const uint32_t axis_out = out.shape[axis];
  const uint32_t axis_idx = indices.shape[axis];
  const uint64_t inner = DimProduct(out.shape, axis + 1, out.rank());
  const uint64_t chunks = (inner + kIndexChunk - 1) / kIndexChunk;
  const bool fits = uint64_t{axis_out} * inner < (uint64_t{1} << 31);
  const uint8_t* upd = reinterpret_cast<const uint8_t*>(updates.data);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data);
  const uint64_t task_elements = axis_idx * std::min<uint64_t>(inner, kIndexChunk);
  parallel.Run(outer * chunks, std::max<size_t>(1, (kCopyGrainBytes / E) / task_elements), [&](size_t begin, size_t end) {
    uint32_t pos[kIndexChunk];
    for (size_t t = begin; t < end; ++t) {
      const uint64_t p = t / chunks, q0 = (t % chunks) * kIndexChunk;
      const size_t n = std::min<uint64_t>(kIndexChunk, inner - q0);
      for (uint32_t j = 0; j < axis_idx; ++j) {
        const uint64_t row = p * axis_idx + j;
        ResolveIndexRun(indices, row * inner + q0, n, axis_out, pos);
        ScatterRow<T>(dst + (p * axis_out * inner + q0) * E, pos, inner, upd + (row * inner + q0) * E, n, fits);
      }
    }
  });
}

template <typename T>
void ScatterNdOfSize(const TensorView& indices, const TensorView& updates, const TensorView& out,
                     core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint32_t coordinates = indices.shape.back();
  const uint64_t slice_bytes = DimProduct(out.shape, coordinates, out.rank()) * E;
  const uint64_t slices = DimProduct(out.shape, 0, coordinates);
  const uint64_t tuples = indices.elements() / coordinates;
  const uint8_t* upd = reinterpret_cast<const uint8_t*>(updates.data);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data);
  auto target_of = [&](uint64_t t) {
    uint64_t s = 0;
    for (uint32_t c = 0; c < coordinates; ++c)
      s = s * out.shape[c] + ClampIndex(LoadIndex(indices, t * coordinates + c), out.shape[c]);
    return s;
  };
  if (slice_bytes >= kCopyGrainBytes) {
    for (uint64_t t = 0; t < tuples; ++t)
      ParallelCopy(parallel, out.data + target_of(t) * slice_bytes, updates.data + t * slice_bytes, slice_bytes);
    return;
  }
  auto write = [&](uint64_t t, uint64_t s) {
    if (slice_bytes == E) StoreRaw<T>(dst + s * E, LoadRaw<T>(upd + t * E));
    else CopyBytes(dst + s * slice_bytes, upd + t * slice_bytes, slice_bytes);
  };
  const size_t threads = parallel.NumThreads();
  if (threads == 1 || slices < 2 || tuples * std::max<uint64_t>(slice_bytes, 64) < 2 * kCopyGrainBytes) {
    for (uint64_t t = 0; t < tuples; ++t) write(t, target_of(t));
    return;
  }
  // Parts own ranges of output slices. Tuples are bucketed by part with a
  // counting sort that keeps their order (chunks of tuples in parallel: count,
  // prefix, place); then each part applies its tuples in order.
  const uint64_t parts = std::min<uint64_t>(slices, 4 * threads), chunks = 4 * threads;
  // Part of a slice: a multiply instead of a 64-bit division per tuple (any
  // monotonic map works: equal targets land in the same part).
  const double part_scale = static_cast<double>(parts) / static_cast<double>(slices);
  std::vector<uint64_t> target(tuples), order(tuples);
  std::vector<uint32_t> part(tuples);
  std::vector<uint64_t> offsets(chunks * parts, 0);  // [chunk][part]
  auto chunk_begin = [&](uint64_t c) { return tuples * c / chunks; };
  // Counters and cursors are per-chunk copies: the shared array would bounce
  // cache lines between threads on every tuple.
  parallel.Run(chunks, 1, [&](size_t begin, size_t end) {
    std::vector<uint64_t> count(parts);
    for (size_t c = begin; c < end; ++c) {
      std::fill(count.begin(), count.end(), 0);
      for (uint64_t t = chunk_begin(c); t < chunk_begin(c + 1); ++t) {
        target[t] = target_of(t);
        part[t] = static_cast<uint32_t>(
            std::min(parts - 1, static_cast<uint64_t>(static_cast<double>(target[t]) * part_scale)));
        ++count[part[t]];
      }
      std::copy(count.begin(), count.end(), offsets.begin() + c * parts);
    }
  });
  std::vector<uint64_t> part_begin(parts + 1);
  uint64_t running = 0;
  for (uint64_t p = 0; p < parts; ++p) {
    part_begin[p] = running;
    for (uint64_t c = 0; c < chunks; ++c) {
      const uint64_t count = offsets[c * parts + p];
      offsets[c * parts + p] = running;
      running += count;
    }
  }
  part_begin[parts] = running;
  parallel.Run(chunks, 1, [&](size_t begin, size_t end) {
    std::vector<uint64_t> cursor(parts);
    for (size_t c = begin; c < end; ++c) {
      std::copy(offsets.begin() + c * parts, offsets.begin() + (c + 1) * parts, cursor.begin());
      for (uint64_t t = chunk_begin(c); t < chunk_begin(c + 1); ++t) order[cursor[part[t]]++] = t;
    }
  });
  parallel.Run(parts, 1, [&](size_t begin, size_t end) {
    for (size_t p = begin; p < end; ++p)
      for (uint64_t i = part_begin[p]; i < part_begin[p + 1]; ++i) write(order[i], target[order[i]]);
  });
}

void ScatterTarget(OpKind op, const TensorView& indices, const TensorView& updates, const TensorView& out,
                   uint32_t axis, core::ParallelFor* parallel) {
  const bool elements = op == OpKind::scatterElements;
  // Elements move as the unsigned integers of their size.
  VisitType<SpecElementTypes<hwy::float16_t>>(out.type, [&]<typename T>(TypeTag<T>) {
    using U = hwy::MakeUnsigned<T>;
    if (elements) ScatterElementsOfSize<U>(indices, updates, out, axis, *parallel);
    else ScatterNdOfSize<U>(indices, updates, out, *parallel);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(ScatterTarget);

namespace {

void RunScatter(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  ParallelCopy(ctx.parallel, out.data, input.data, input.bytes());
  const uint32_t axis = ctx.op == OpKind::scatterElements ? AttrsAs<ScatterAttrs>(ctx.attrs).axis : 0;
  HWY_DYNAMIC_DISPATCH(ScatterTarget)(ctx.op, ctx.inputs[1], ctx.inputs[2], out, axis, &ctx.parallel);
}

}  // namespace

// Every data type the schema allows for input/updates (1, 2, 4 or 8-byte
// elements) and every index type (int32, uint32, int64).
void RegisterScatterKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunScatter, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
