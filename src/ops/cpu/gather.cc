// cpu kernels of gather, gatherElements and gatherND, every data type (moved
// as 1, 2, 4 or 8-byte elements) with int32, uint32 or int64 indices resolved
// exactly as the reference does (copy_util.h ClampIndex).
//
// gather:          [outer, axis, inner] -> [outer, indices, inner]: row copies of
//                  `inner` elements, or hardware gathers when inner == 1.
// gatherElements:  [P, axis, Q]: out[p, j, q] = in[p, idx[p, j, q], q]; gathers
//                  along q with positions idx * Q + q.
// gatherND:        one copy of the addressed slice per index tuple.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/gather.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "ops/cpu/copy-inl.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/gather.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Indices resolved per task in chunks of this many (16 KiB of positions).
constexpr size_t kIndexChunk = 4096;

bool FitsInt32(uint64_t max_position) { return max_position < (uint64_t{1} << 31); }

template <typename T>
void GatherAxisOfSize(const TensorView& input, const TensorView& indices, const TensorView& out, uint32_t axis,
                      core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint64_t outer = DimProduct(input.shape, 0, axis);
  const uint32_t axis_size = input.shape[axis];
  const uint64_t inner = DimProduct(input.shape, axis + 1, input.rank());
  const uint64_t count = indices.elements();
  std::vector<uint32_t> pos(count);
  ResolveIndexRun(indices, 0, count, axis_size, pos.data());
  const uint8_t* src = reinterpret_cast<const uint8_t*>(input.data);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data);
  if (inner == 1) {
    // One element per index: tasks are (outer, chunk of indices).
    const uint64_t chunks = (count + kIndexChunk - 1) / kIndexChunk;
    const bool fits = FitsInt32(axis_size);
    parallel.Run(outer * chunks, std::max<size_t>(1, (kCopyGrainBytes / E) / std::min<uint64_t>(count, kIndexChunk)),
                 [&](size_t begin, size_t end) {
                   for (size_t t = begin; t < end; ++t) {
                     const uint64_t o = t / chunks, k0 = (t % chunks) * kIndexChunk;
                     const size_t n = std::min<uint64_t>(kIndexChunk, count - k0);
                     // Random reads within a row defeat the hardware prefetcher:
                     // fetch the next row (up to 64 KiB) while gathering this one.
                     if (k0 == 0 && o + 1 < outer && axis_size * E <= 65536)
                       for (uint64_t b = 0; b < axis_size * E; b += 64) hwy::Prefetch(src + (o + 1) * axis_size * E + b);
                     GatherByPositions<T>(dst + (o * count + k0) * E, src + o * axis_size * E, pos.data() + k0, 1, 0,
                                          n, fits);
                   }
                 });
    return;
  }
  const uint64_t row_bytes = inner * E;
  parallel.Run(outer * count, std::max<size_t>(1, kCopyGrainBytes / row_bytes), [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const uint64_t o = t / count, k = t % count;
      CopyBytes(dst + t * row_bytes, src + (o * axis_size + pos[k]) * row_bytes, row_bytes);
    }
  });
}

template <typename T>
void GatherElementsOfSize(const TensorView& input, const TensorView& indices, const TensorView& out, uint32_t axis,
                          core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint64_t outer = DimProduct(input.shape, 0, axis);  // equals the indices' (validation)
  const uint32_t axis_in = input.shape[axis];
  const uint32_t axis_idx = indices.shape[axis];
  const uint64_t inner = DimProduct(input.shape, axis + 1, input.rank());
  const uint8_t* src = reinterpret_cast<const uint8_t*>(input.data);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data);
  // Rows (p, j) of `inner` elements, in chunks of kIndexChunk.
  const uint64_t rows = outer * axis_idx;
  const uint64_t chunks = (inner + kIndexChunk - 1) / kIndexChunk;
  const bool fits = FitsInt32(uint64_t{axis_in} * inner);
  parallel.Run(rows * chunks, std::max<size_t>(1, (kCopyGrainBytes / E) / std::min<uint64_t>(inner, kIndexChunk)),
               [&](size_t begin, size_t end) {
                 uint32_t pos[kIndexChunk];
                 for (size_t t = begin; t < end; ++t) {
                   const uint64_t r = t / chunks, q0 = (t % chunks) * kIndexChunk;
                   const uint64_t p = r / axis_idx;
                   const size_t n = std::min<uint64_t>(kIndexChunk, inner - q0);
                   ResolveIndexRun(indices, r * inner + q0, n, axis_in, pos);
                   GatherByPositions<T>(dst + (r * inner + q0) * E, src + (p * axis_in * inner + q0) * E, pos, inner,
                                        1, n, fits);
                 }
               });
}

template <typename T>
void GatherNdOfSize(const TensorView& input, const TensorView& indices, const TensorView& out,
                    core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint32_t coordinates = indices.shape.back();
  const std::vector<int64_t> strides = ByteStrides(input.shape, E);
  const uint64_t slice_bytes = DimProduct(input.shape, coordinates, input.rank()) * E;
  const uint64_t tuples = indices.elements() / coordinates;
  const uint8_t* src = reinterpret_cast<const uint8_t*>(input.data);
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data);
  // A tuple costs its index reads even when the slice is one element.
  parallel.Run(tuples, std::max<size_t>(1, kCopyGrainBytes / std::max<uint64_t>(slice_bytes, 64)),
               [&](size_t begin, size_t end) {
                 for (size_t t = begin; t < end; ++t) {
                   uint64_t offset = 0;
                   for (uint32_t c = 0; c < coordinates; ++c)
                     offset += ClampIndex(LoadIndex(indices, t * coordinates + c), input.shape[c]) * strides[c];
                   if (slice_bytes == E) StoreRaw<T>(dst + t * E, LoadRaw<T>(src + offset));
                   else CopyBytes(dst + t * slice_bytes, src + offset, slice_bytes);
                 }
               });
}

template <typename T>
void GatherOfSize(OpKind op, const TensorView& input, const TensorView& indices, const TensorView& out,
                  uint32_t axis, core::ParallelFor& parallel) {
  switch (op) {
    case OpKind::gather: return GatherAxisOfSize<T>(input, indices, out, axis, parallel);
    case OpKind::gatherElements: return GatherElementsOfSize<T>(input, indices, out, axis, parallel);
    default: return GatherNdOfSize<T>(input, indices, out, parallel);
  }
}

void GatherTarget(OpKind op, const TensorView& input, const TensorView& indices, const TensorView& out, uint32_t axis,
                  core::ParallelFor* parallel) {
  // Elements move as the unsigned integers of their size.
  VisitType<SpecElementTypes<hwy::float16_t>>(input.type, [&]<typename T>(TypeTag<T>) {
    GatherOfSize<hwy::MakeUnsigned<T>>(op, input, indices, out, axis, *parallel);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(GatherTarget);

namespace {

void RunGather(const KernelContext& ctx) {
  const uint32_t axis = ctx.op == OpKind::gatherND ? 0 : AttrsAs<GatherAttrs>(ctx.attrs).axis;
  HWY_DYNAMIC_DISPATCH(GatherTarget)(ctx.op, ctx.inputs[0], ctx.inputs[1], ctx.outputs[0], axis, &ctx.parallel);
}

}  // namespace

// Every data type the schema allows for the input (1, 2, 4 or 8-byte
// elements) and every index type (int32, uint32, int64).
void RegisterGatherKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunGather, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
