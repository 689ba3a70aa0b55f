// cpu kernel of pad (constant, edge and reflection modes).
//
// Let D be the last padded axis and a "unit" the u contiguous elements of the
// unpadded axes after it. Every output row along D is then
//   [pb units of padding | n units copied from one input row | pe units of padding]
// and rows whose outer coordinates fall in the padding are all constant
// (constant mode) or map to an input row (edge: clamped, reflection: mirrored).
// Middle parts are contiguous copies, constant padding is a SIMD fill of the
// value cast like the reference does (CastMLNumber), edge padding with u == 1 is
// a fill of the edge element and reflection with u == 1 a lane reversal.
// Tasks are output rows, or pieces of rows when there are few.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/pad.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/copy-inl.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/number_cast.h"
#include "ops/pad.h"

#ifndef WEBNN_OPS_CPU_PAD_PLAN_
#define WEBNN_OPS_CPU_PAD_PLAN_
namespace webnn::ops::cpu {

struct PadPlan {
  size_t element_bytes;
  MLPaddingMode mode;
  uint8_t constant[8];           // the pad value as one element
  uint64_t unit;                 // elements per unit (unpadded trailing axes)
  uint64_t before, inner, after;  // units of the last padded axis D
  // Outer axes (before D): output size, input byte stride, and for each
  // output coordinate the input coordinate (-1: constant padding).
  std::vector<uint64_t> outer_sizes;
  std::vector<int64_t> outer_strides;
  std::vector<std::vector<int64_t>> outer_maps;
};

}  // namespace webnn::ops::cpu
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Units [a, b) of one output row; `src` is the input row (null: all constant).
template <typename T>
void PadRowUnits(const PadPlan& plan, const uint8_t* src, uint8_t* dst, uint64_t a, uint64_t b) {
  constexpr size_t E = sizeof(T);
  const uint64_t u = plan.unit, ub = u * E;
  const T value = LoadRaw<T>(plan.constant);
  if (src == nullptr) {
    FillLanes<T>(dst + a * ub, value, (b - a) * u);
    return;
  }
  const uint64_t pb = plan.before, n = plan.inner, mid_end = pb + n;
  // Left padding: units [a, l1).
  const uint64_t l1 = std::min(b, pb);
  if (a < l1) {
    switch (plan.mode) {
      case MLPaddingMode::kConstant: FillLanes<T>(dst + a * ub, value, (l1 - a) * u); break;
      case MLPaddingMode::kEdge:
        if (u == 1) FillLanes<T>(dst + a * E, LoadRaw<T>(src), l1 - a);
        else
          for (uint64_t x = a; x < l1; ++x) CopyBytes(dst + x * ub, src, ub);
        break;
      case MLPaddingMode::kReflection:  // unit x mirrors input unit pb - x
        if (u == 1) ReverseLanes<T>(dst + a * E, src + (pb - l1 + 1) * E, l1 - a);
        else
          for (uint64_t x = a; x < l1; ++x) CopyBytes(dst + x * ub, src + (pb - x) * ub, ub);
        break;
    }
  }
  // Input units [m0, m1).
  const uint64_t m0 = std::max(a, pb), m1 = std::min(b, mid_end);
  if (m0 < m1) CopyBytes(dst + m0 * ub, src + (m0 - pb) * ub, (m1 - m0) * ub);
  // Right padding: units [r0, b).
  const uint64_t r0 = std::max(a, mid_end);
  if (r0 < b) {
    switch (plan.mode) {
      case MLPaddingMode::kConstant: FillLanes<T>(dst + r0 * ub, value, (b - r0) * u); break;
      case MLPaddingMode::kEdge:
        if (u == 1) FillLanes<T>(dst + r0 * E, LoadRaw<T>(src + (n - 1) * E), b - r0);
        else
          for (uint64_t x = r0; x < b; ++x) CopyBytes(dst + x * ub, src + (n - 1) * ub, ub);
        break;
      case MLPaddingMode::kReflection:  // unit x mirrors input unit n - 2 - (x - mid_end)
        if (u == 1) ReverseLanes<T>(dst + r0 * E, src + (n - 2 - (b - 1 - mid_end)) * E, b - r0);
        else
          for (uint64_t x = r0; x < b; ++x) CopyBytes(dst + x * ub, src + (n - 2 - (x - mid_end)) * ub, ub);
        break;
    }
  }
}

template <typename T>
void PadOfSize(const PadPlan& plan, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(T);
  const uint64_t row_units = plan.before + plan.inner + plan.after;
  const uint64_t unit_bytes = plan.unit * E, row_bytes = row_units * unit_bytes;
  uint64_t rows = 1;
  for (uint64_t s : plan.outer_sizes) rows *= s;
  const uint64_t seg = std::max<uint64_t>(1, kCopyGrainBytes / unit_bytes);
  const uint64_t segs = rows >= 4 * parallel.NumThreads() ? 1 : (row_units + seg - 1) / seg;
  const size_t grain = segs > 1 ? 1 : std::max<size_t>(1, kCopyGrainBytes / row_bytes);
  const size_t dims = plan.outer_sizes.size();
  parallel.Run(rows * segs, grain, [&](size_t begin, size_t end) {
    std::vector<uint64_t> idx(dims);
    uint64_t current = begin / segs;
    for (size_t d = dims, r = current; d-- > 0;) {
      idx[d] = r % plan.outer_sizes[d];
      r /= plan.outer_sizes[d];
    }
    for (size_t t = begin; t < end; ++t) {
      const uint64_t r = t / segs, piece = t % segs;
      for (; current < r; ++current)
        for (size_t d = dims; d-- > 0;) {
          if (++idx[d] < plan.outer_sizes[d]) break;
          idx[d] = 0;
        }
      const uint8_t* row = src;
      for (size_t d = 0; d < dims && row; ++d) {
        const int64_t c = plan.outer_maps[d][idx[d]];
        row = c < 0 ? nullptr : row + c * plan.outer_strides[d];
      }
      const uint64_t a = piece * seg, b = std::min(row_units, a + seg);
      PadRowUnits<T>(plan, row, dst + r * row_bytes, a, b);
    }
  });
}

void PadTarget(const PadPlan& plan, const std::byte* src, std::byte* dst, core::ParallelFor* parallel) {
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst);
  switch (plan.element_bytes) {
    case 1: return PadOfSize<uint8_t>(plan, in, out, *parallel);
    case 2: return PadOfSize<uint16_t>(plan, in, out, *parallel);
    case 4: return PadOfSize<uint32_t>(plan, in, out, *parallel);
    default: return PadOfSize<uint64_t>(plan, in, out, *parallel);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(PadTarget);

namespace {

// The input coordinate output coordinate `c` (relative to the input start)
// reads, as the reference's SourceCoordinate; -1 means the constant.
int64_t SourceCoordinate(int64_t c, int64_t dim, MLPaddingMode mode) {
  if (c >= 0 && c < dim) return c;
  switch (mode) {
    case MLPaddingMode::kConstant: return -1;
    case MLPaddingMode::kEdge: return c < 0 ? 0 : dim - 1;
    case MLPaddingMode::kReflection: {
      if (dim == 1) return 0;
      const int64_t period = 2 * (dim - 1);
      int64_t m = c % period;
      if (m < 0) m += period;
      return m < dim ? m : period - m;
    }
  }
  return -1;
}

void RunPad(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<PadAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const uint32_t rank = input.rank();
  PadPlan plan;
  plan.element_bytes = ElementBytes(input.type);
  plan.mode = attrs.mode;
  std::memset(plan.constant, 0, sizeof plan.constant);
  WriteCastValue(CastMLNumber(attrs.value, input.type), input.type, reinterpret_cast<std::byte*>(plan.constant));

  int last_padded = -1;
  for (uint32_t d = 0; d < rank; ++d)
    if (attrs.beginningPadding[d] || attrs.endingPadding[d]) last_padded = static_cast<int>(d);
  if (last_padded < 0) {
    ParallelCopy(ctx.parallel, out.data, input.data, input.bytes());
    return;
  }
  const uint32_t axis = static_cast<uint32_t>(last_padded);
  // Along D the row kernel mirrors once, which validation guarantees for
  // reflection (padding < dim); outer axes use the general mapping.
  plan.unit = DimProduct(input.shape, axis + 1, rank);
  plan.before = attrs.beginningPadding[axis];
  plan.inner = input.shape[axis];
  plan.after = attrs.endingPadding[axis];
  const std::vector<int64_t> strides = ByteStrides(input.shape, plan.element_bytes);
  for (uint32_t d = 0; d < axis; ++d) {
    plan.outer_sizes.push_back(out.shape[d]);
    plan.outer_strides.push_back(strides[d]);
    std::vector<int64_t> map(out.shape[d]);
    for (uint32_t c = 0; c < out.shape[d]; ++c)
      map[c] = SourceCoordinate(int64_t{c} - attrs.beginningPadding[d], input.shape[d], attrs.mode);
    plan.outer_maps.push_back(std::move(map));
  }
  HWY_DYNAMIC_DISPATCH(PadTarget)(plan, input.data, out.data, &ctx.parallel);
}

}  // namespace

// Every data type the schema allows: the kernel moves 1, 2, 4 or 8-byte elements.
void RegisterPadKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunPad, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
