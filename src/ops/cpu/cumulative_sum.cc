// cpu kernel of cumulativeSum: float32, float16, int32, uint32, int64, uint64.
//
// Numerics follow the reference exactly: floats are accumulated in float64, in
// the same sequential order, and rounded once to the output type (float16
// through float32 with round-to-odd, so the two roundings act as one); integers
// wrap, which is the same modulo 2^bits whether 32 or 64-bit lanes carry it.
// So the kernel is bit-identical to the reference, not merely within WPT's
// 3 ULP.
//
// Viewed as [P, axis, Q], each of the P * Q lines is a sequential scan, and the
// SIMD lanes go across lines:
//   Q >= one vector: rows of Q contiguous elements are added to a row of
//     accumulators (tasks: p x chunks of columns);
//   Q == 1 (scan along the innermost axis): groups of lines are transposed in
//     L1-sized blocks with the register-tile transpose (copy-inl.h), scanned
//     down the columns, and transposed back;
//   otherwise (1 < Q < a vector, or fewer lines than a tile): a scalar scan per
//     line, the sequential dependency being the cost either way.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/cumulative_sum.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "ops/cpu/float16-inl.h"

#include "core/float16.h"
#include "ops/cpu/copy-inl.h"
#include "ops/cpu/copy_util.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cumulative_sum.h"

#ifndef WEBNN_OPS_CPU_CUMULATIVE_SUM_KIND_
#define WEBNN_OPS_CPU_CUMULATIVE_SUM_KIND_
namespace webnn::ops::cpu {
enum class ScanKind { kF32, kF16, kU32, kU64 };
struct ScanShape {
  uint64_t outer, axis, inner;  // [P, axis, Q]
  bool exclusive, reversed;
};
}  // namespace webnn::ops::cpu
#endif

// Vector float conversions the scan relies on, as Highway 1.0.3 implements
// them: float64 <-> float32 is native except on the emulated targets (HWY_SCALAR
// and HWY_EMU128 saturate Inf to the largest finite value); float16 <-> float32
// only with F16C (AVX2 and up): the SSE4/emulated conversions turn Inf, NaN and
// overflow into finite values. Other targets scan those types with scalar
// conversions (the tests run every compiled target).
#undef WEBNN_SCAN_VECTOR_F32
#undef WEBNN_SCAN_VECTOR_F16
#if HWY_HAVE_FLOAT64 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
#define WEBNN_SCAN_VECTOR_F32 1
#else
#define WEBNN_SCAN_VECTOR_F32 0
#endif
#if WEBNN_SCAN_VECTOR_F32 && (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
#define WEBNN_SCAN_VECTOR_F16 1
#else
#define WEBNN_SCAN_VECTOR_F16 0
#endif

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <ScanKind K>
constexpr bool VectorScan() {
  if constexpr (K == ScanKind::kF32) return WEBNN_SCAN_VECTOR_F32;
  if constexpr (K == ScanKind::kF16) return WEBNN_SCAN_VECTOR_F16;
  if constexpr (K == ScanKind::kU64) return HWY_HAVE_INTEGER64 && HWY_TARGET != HWY_SCALAR;
  return HWY_TARGET != HWY_SCALAR;
}

template <ScanKind K>
struct ScanTypes;
template <>
struct ScanTypes<ScanKind::kF32> {
  using Lane = uint32_t;  // storage, for the transposes
  using Acc = double;
};
template <>
struct ScanTypes<ScanKind::kF16> {
  using Lane = uint16_t;
  using Acc = double;
};
template <>
struct ScanTypes<ScanKind::kU32> {
  using Lane = uint32_t;
  using Acc = uint32_t;
};
template <>
struct ScanTypes<ScanKind::kU64> {
  using Lane = uint64_t;
  using Acc = uint64_t;
};

// Scalar element <-> accumulator, as the reference converts.
template <ScanKind K>
HWY_INLINE typename ScanTypes<K>::Acc LoadAcc(const uint8_t* p) {
  if constexpr (K == ScanKind::kF32) return static_cast<double>(LoadRaw<float>(p));
  else if constexpr (K == ScanKind::kF16) return core::HalfBitsToDouble(LoadRaw<uint16_t>(p));
  else return LoadRaw<typename ScanTypes<K>::Acc>(p);
}
template <ScanKind K>
HWY_INLINE void StoreAcc(uint8_t* p, typename ScanTypes<K>::Acc v) {
  if constexpr (K == ScanKind::kF32) StoreRaw<float>(p, static_cast<float>(v));
  else if constexpr (K == ScanKind::kF16) StoreRaw<uint16_t>(p, core::DoubleToHalfBits(v));
  else StoreRaw<typename ScanTypes<K>::Acc>(p, v);
}

// float64 -> float16 with one rounding: round to float32 precision with a
// sticky bit (round-to-odd: clear the 29 dropped mantissa bits, set the lowest
// kept one if any was set), which float32 holds exactly, then round to
// nearest-even float16. Values outside float32's normal range round the same
// way either side (to Inf, or far below float16's smallest subnormal).
template <class DD>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DD>> DemoteToF16(DD dd, hn::Vec<DD> v) {
  const hn::RebindToUnsigned<DD> du;
  const hn::Rebind<float, DD> df;
  const auto dropped = hn::Set(du, (uint64_t{1} << 29) - 1);
  auto bits = hn::BitCast(du, v);
  const auto sticky = hn::IfThenElseZero(hn::Ne(hn::And(bits, dropped), hn::Zero(du)), hn::Set(du, uint64_t{1} << 29));
  bits = hn::Or(hn::AndNot(dropped, bits), sticky);
  return F32ToF16Bits(df, hn::DemoteTo(df, hn::BitCast(dd, bits)));
}

// One row step of `width` lines: out = acc (+ x), acc += x.
template <ScanKind K>
HWY_INLINE void ScanRow(const uint8_t* HWY_RESTRICT src, uint8_t* HWY_RESTRICT dst, size_t width,
                        typename ScanTypes<K>::Acc* HWY_RESTRICT acc, bool exclusive) {
  using Acc = typename ScanTypes<K>::Acc;
  constexpr size_t E = sizeof(typename ScanTypes<K>::Lane);
  const hn::ScalableTag<Acc> da;
  const size_t N = hn::Lanes(da);
  size_t k = 0;
  for (; k + N <= width; k += N) {
    hn::Vec<decltype(da)> x;
    if constexpr (K == ScanKind::kF32) {
      x = hn::PromoteTo(da, hn::LoadU(hn::Rebind<float, decltype(da)>(), reinterpret_cast<const float*>(src) + k));
    } else if constexpr (K == ScanKind::kF16) {
      const hn::Rebind<float, decltype(da)> df;
      const hn::Rebind<uint16_t, decltype(da)> du16;
      x = hn::PromoteTo(da, F16BitsToF32(df, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(src) + k)));
    } else {
      x = hn::LoadU(da, reinterpret_cast<const Acc*>(src) + k);
    }
    auto a = hn::LoadU(da, acc + k);
    const auto sum = hn::Add(a, x);
    hn::StoreU(sum, da, acc + k);
    if (!exclusive) a = sum;
    if constexpr (K == ScanKind::kF32) {
      const hn::Rebind<float, decltype(da)> df;
      hn::StoreU(hn::DemoteTo(df, a), df, reinterpret_cast<float*>(dst) + k);
    } else if constexpr (K == ScanKind::kF16) {
      const hn::Rebind<uint16_t, decltype(da)> du16;
      hn::StoreU(DemoteToF16(da, a), du16, reinterpret_cast<uint16_t*>(dst) + k);
    } else {
      hn::StoreU(a, da, reinterpret_cast<Acc*>(dst) + k);
    }
  }
  for (; k < width; ++k) {
    const Acc before = acc[k];
    acc[k] = before + LoadAcc<K>(src + k * E);
    StoreAcc<K>(dst + k * E, exclusive ? before : acc[k]);
  }
}

// `rows` row steps in scan order (last row first when reversed).
template <ScanKind K>
HWY_INLINE void ScanColumns(const uint8_t* src, ptrdiff_t src_stride, uint8_t* dst, ptrdiff_t dst_stride, size_t rows,
                            size_t width, typename ScanTypes<K>::Acc* acc, const ScanShape& s) {
  for (size_t step = 0; step < rows; ++step) {
    const size_t r = s.reversed ? rows - 1 - step : step;
    ScanRow<K>(src + r * src_stride, dst + r * dst_stride, width, acc, s.exclusive);
  }
}

// One line of `n` elements `stride` bytes apart, scalar.
template <ScanKind K>
void ScanLine(const uint8_t* src, uint8_t* dst, ptrdiff_t stride, size_t n, const ScanShape& s) {
  typename ScanTypes<K>::Acc sum = 0;
  for (size_t step = 0; step < n; ++step) {
    const ptrdiff_t off = static_cast<ptrdiff_t>(s.reversed ? n - 1 - step : step) * stride;
    const auto before = sum;
    sum = before + LoadAcc<K>(src + off);
    StoreAcc<K>(dst + off, s.exclusive ? before : sum);
  }
}

// A scalar scan per line, over threads.
template <ScanKind K>
void ScanLines(const ScanShape& s, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  constexpr size_t E = sizeof(typename ScanTypes<K>::Lane);
  const uint64_t A = s.axis, Q = s.inner;
  parallel.Run(s.outer * Q, std::max<size_t>(1, kCopyGrainBytes / E / A), [&](size_t begin, size_t end) {
    for (size_t line = begin; line < end; ++line) {
      const uint64_t p = line / Q, q = line % Q;
      const uint64_t base = (p * A * Q + q) * E;
      ScanLine<K>(src + base, dst + base, Q * E, A, s);
    }
  });
}

template <ScanKind K>
void CumulativeSumVector(const ScanShape& s, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  using Lane = typename ScanTypes<K>::Lane;
  using Acc = typename ScanTypes<K>::Acc;
  constexpr size_t E = sizeof(Lane);
  const size_t N = hn::Lanes(hn::ScalableTag<Acc>());
  const uint64_t P = s.outer, A = s.axis, Q = s.inner;
  const size_t kWork = kCopyGrainBytes / E;  // elements per task, at least
  if (Q >= N) {
    // Rows of Q: accumulators for a chunk of columns, 8 KiB of them.
    const uint64_t chunk = std::max<uint64_t>(N, 8192 / sizeof(Acc) / N * N);
    const uint64_t chunks = (Q + chunk - 1) / chunk;
    parallel.Run(P * chunks, std::max<size_t>(1, kWork / (A * std::min(Q, chunk))), [&](size_t begin, size_t end) {
      std::vector<Acc> acc(std::min(Q, chunk));
      for (size_t t = begin; t < end; ++t) {
        const uint64_t p = t / chunks, q0 = (t % chunks) * chunk, width = std::min(chunk, Q - q0);
        std::fill(acc.begin(), acc.begin() + width, Acc{0});
        const uint64_t base = (p * A * Q + q0) * E;
        ScanColumns<K>(src + base, Q * E, dst + base, Q * E, A, width, acc.data(), s);
      }
    });
    return;
  }
#if WEBNN_COPY_TILES
  // A register tile wide, and at least one vector of accumulators.
  constexpr size_t kLines = HWY_MAX(TileLanes<Lane>(), hn::MaxLanes(hn::ScalableTag<Acc>()));
#else
  constexpr size_t kLines = 4;
#endif
  if (Q == 1 && P >= kLines) {
    // Groups of kLines lines; blocks of kBlock positions through L1 scratch.
    constexpr size_t kBlock = 256;
    const uint64_t groups = (P + kLines - 1) / kLines;
    parallel.Run(groups, std::max<size_t>(1, kWork / (kLines * A)), [&](size_t begin, size_t end) {
      std::vector<uint8_t> in_block(kBlock * kLines * E), out_block(kBlock * kLines * E);
      Acc acc[kLines];
      for (size_t g = begin; g < end; ++g) {
        const uint64_t p0 = g * kLines;
        if (p0 + kLines > P) {  // last, partial group
          for (uint64_t p = p0; p < P; ++p) ScanLine<K>(src + p * A * E, dst + p * A * E, E, A, s);
          continue;
        }
        std::fill(acc, acc + kLines, Acc{0});
        const uint64_t blocks = (A + kBlock - 1) / kBlock;
        for (uint64_t step = 0; step < blocks; ++step) {
          const uint64_t b = s.reversed ? blocks - 1 - step : step;
          const uint64_t a0 = b * kBlock, n = std::min<uint64_t>(kBlock, A - a0);
          const uint8_t* in = src + (p0 * A + a0) * E;
          uint8_t* out = dst + (p0 * A + a0) * E;
          // in_block[a][line] = in[line][a]; scan down a; back.
          TransposeBlock<Lane>(in, A * E, in_block.data(), kLines * E, n, kLines);
          ScanColumns<K>(in_block.data(), kLines * E, out_block.data(), kLines * E, n, kLines, acc, s);
          TransposeBlock<Lane>(out_block.data(), kLines * E, out, A * E, kLines, n);
        }
      }
    });
    return;
  }
  // Scalar lines (1 < Q < N, or fewer than kLines lines).
  ScanLines<K>(s, src, dst, parallel);
}

template <ScanKind K>
void CumulativeSumOfKind(const ScanShape& s, const uint8_t* src, uint8_t* dst, core::ParallelFor& parallel) {
  if constexpr (VectorScan<K>()) CumulativeSumVector<K>(s, src, dst, parallel);
  else ScanLines<K>(s, src, dst, parallel);
}

void CumulativeSumTarget(ScanKind kind, const ScanShape& s, const std::byte* src, std::byte* dst,
                         core::ParallelFor* parallel) {
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst);
  switch (kind) {
    case ScanKind::kF32: return CumulativeSumOfKind<ScanKind::kF32>(s, in, out, *parallel);
    case ScanKind::kF16: return CumulativeSumOfKind<ScanKind::kF16>(s, in, out, *parallel);
    case ScanKind::kU32: return CumulativeSumOfKind<ScanKind::kU32>(s, in, out, *parallel);
    case ScanKind::kU64: return CumulativeSumOfKind<ScanKind::kU64>(s, in, out, *parallel);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(CumulativeSumTarget);

namespace {

void RunCumulativeSum(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<CumulativeSumAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  ScanShape s;
  s.outer = DimProduct(input.shape, 0, attrs.axis);
  s.axis = input.shape[attrs.axis];
  s.inner = DimProduct(input.shape, attrs.axis + 1, input.rank());
  s.exclusive = attrs.exclusive;
  s.reversed = attrs.reversed;
  ScanKind kind;
  switch (input.type) {
    case DataType::kFloat32: kind = ScanKind::kF32; break;
    case DataType::kFloat16: kind = ScanKind::kF16; break;
    case DataType::kInt32:
    case DataType::kUint32: kind = ScanKind::kU32; break;
    default: kind = ScanKind::kU64; break;  // int64, uint64
  }
  HWY_DYNAMIC_DISPATCH(CumulativeSumTarget)(kind, s, input.data, out.data, &ctx.parallel);
}

}  // namespace

// Every type the schema allows: float32, float16, int32, uint32, int64, uint64.
void RegisterCumulativeSumKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunCumulativeSum, nullptr, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
