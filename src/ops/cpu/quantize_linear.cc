// cpu kernels of quantizeLinear and dequantizeLinear: float32/float16 <->
// uint8, int8, uint32, int32, uint4, int4, with blockwise-broadcast scale and
// zeroPoint (per-tensor, per-axis and block sizes along any axes).
//
// quantizeLinear = saturate(roundEven(x / scale) + zeroPoint), NaN -> 0, with
// the rounding of the exact quotient, as the reference computes it:
//  - 8-bit and 4-bit outputs in float32 lanes. q = fl32(x / s) rounds the
//    same way as x / s except when q lands exactly on k + 1/2 (rounding is
//    monotonic and k + 1/2 is a float32 below 2^23; above 2^23 float32 rounds
//    to integers with the same tie rule, and from 2^24 on the output
//    saturates anyway). Such lanes are decided by the sign of the residual
//    x - (k + 1/2) * s, which one FMA computes exactly.
//  - 32-bit outputs in float64 lanes (the reference's own arithmetic), ties
//    decided the same way.
// dequantizeLinear = (x - zeroPoint) * scale, rounded once:
//  - 8-bit and 4-bit inputs in float32 lanes: the difference has <= 9 bits,
//    so float32 rounds the product once, like the reference's float64 product
//    rounded to float32 (float16 scale: the product is exact in float32);
//  - 32-bit inputs in float64 lanes, stored with one rounding.
// Parameters are read per run of elements that share them (a run is a block
// of the innermost dimension), or as vectors where every element has its own;
// constant scale/zeroPoint are converted to the lanes' type once, at compile
// time (prepare).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/quantize_linear.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cmath>
#include <memory>
#include <vector>

#include "core/float16.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {  // internal linkage: no merging with other kernels' same-named helpers

// roundEven of the exact x / s, given q = fl(x / s) (float32 or float64 lanes).
template <class D, class V>
HWY_INLINE V RoundEvenQuotient(D d, V x, V s, V q) {
  using T = hn::TFromD<D>;
  const V floor_q = hn::Floor(q);
  const V half = hn::Set(d, T(0.5));
  const auto tie = hn::Eq(hn::Sub(q, floor_q), half);
  V r = hn::Round(q);  // nearest, ties to even
  if (HWY_UNLIKELY(!hn::AllFalse(d, tie))) {
    const V t = hn::Add(floor_q, half);
#if HWY_NATIVE_FMA
    const V residual = hn::NegMulAdd(t, s, x);  // x - t * s, one rounding: its sign is exact
#else
    HWY_ALIGN T vt[HWY_MAX_BYTES / sizeof(T)], vs[HWY_MAX_BYTES / sizeof(T)], vx[HWY_MAX_BYTES / sizeof(T)];
    hn::Store(t, d, vt);
    hn::Store(s, d, vs);
    hn::Store(x, d, vx);
    for (size_t i = 0; i < hn::Lanes(d); ++i) vx[i] = std::fma(-vt[i], vs[i], vx[i]);
    const V residual = hn::Load(d, vx);
#endif
    const auto above = hn::Not(hn::Xor(hn::Gt(residual, hn::Zero(d)), hn::Gt(s, hn::Zero(d))));  // x / s > t
    const V decided = hn::IfThenElse(above, hn::Add(floor_q, hn::Set(d, T(1))), floor_q);
    r = hn::IfThenElse(hn::And(tie, hn::Ne(residual, hn::Zero(d))), decided, r);
  }
  return r;
}

// round(x / scale) + zeroPoint, saturated to [lo, hi], as the low bits of
// integer lanes the width of T: 8-bit patterns (int8/uint8/int4/uint4) from
// float32 lanes, 32-bit ones (int32/uint32) from float64 lanes.
template <class XMem, typename T, typename O>
HWY_INLINE void QuantizeT(const void* x_raw, const T* scale, const T* zp, bool pv, O* out, size_t n, T lo, T hi) {
  using M = typename XMem::M;
  const M* x = static_cast<const M*>(x_raw);
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<O, decltype(d)> dout;
  const auto s_splat = hn::Set(d, scale[0]);
  const auto z_splat = hn::Set(d, zp[0]);
  const auto vlo = hn::Set(d, lo), vhi = hn::Set(d, hi);
  ForEachVectorOf(hn::Lanes(d), n, [&](size_t k, size_t c) {
    const auto vx = XMem::Load(d, x + k, c);
    const auto s = pv ? LoadPart(d, scale + k, c) : s_splat;
    const auto z = pv ? LoadPart(d, zp + k, c) : z_splat;
    auto v = hn::Add(RoundEvenQuotient(d, vx, s, hn::Div(vx, s)), z);
    v = hn::IfThenZeroElse(hn::IsNaN(v), v);
    v = hn::Min(hn::Max(v, vlo), vhi);
    StorePart(Truncate(dout, hn::BitCast(du, hn::ConvertTo(di, v))), dout, out + k, c);
  });
}

void QuantizeBytes(bool half_x, const void* x, const float* scale, const float* zp, bool pv, uint8_t* out, size_t n,
                   float lo, float hi) {
  if (half_x) QuantizeT<HalfLanes>(x, scale, zp, pv, out, n, lo, hi);
  else QuantizeT<NativeLanes<float>>(x, scale, zp, pv, out, n, lo, hi);
}

void Quantize32(bool half_x, const void* x, const double* scale, const double* zp, bool pv, uint32_t* out, size_t n,
                double lo, double hi) {
  if (half_x) QuantizeT<HalfAsF64Lanes>(x, scale, zp, pv, out, n, lo, hi);
  else QuantizeT<FloatAsF64Lanes>(x, scale, zp, pv, out, n, lo, hi);
}

// Dequantize int8/uint8 values (4-bit ones unpacked) in float32 lanes.
template <typename T, class OutMem>
HWY_INLINE void DequantizeBytesT(const uint8_t* x_raw, const float* scale, const float* zp, bool pv, void* out_raw,
                                 size_t n) {
  const T* x = reinterpret_cast<const T*>(x_raw);
  auto* out = static_cast<typename OutMem::M*>(out_raw);
  const hn::ScalableTag<float> d;
  const auto s_splat = hn::Set(d, scale[0]);
  const auto z_splat = hn::Set(d, zp[0]);
  ForEachVectorOf(hn::Lanes(d), n, [&](size_t k, size_t c) {
    const auto vx = ByteAsF32Lanes<T>::Load(d, x + k, c);
    const auto s = pv ? LoadPart(d, scale + k, c) : s_splat;
    const auto z = pv ? LoadPart(d, zp + k, c) : z_splat;
    OutMem::Store(hn::Mul(hn::Sub(vx, z), s), d, out + k, c);
  });
}

void DequantizeBytes(bool is_signed, bool half_out, const uint8_t* x, const float* scale, const float* zp, bool pv,
                     void* out, size_t n) {
  if (is_signed) {
    if (half_out) DequantizeBytesT<int8_t, HalfLanes>(x, scale, zp, pv, out, n);
    else DequantizeBytesT<int8_t, NativeLanes<float>>(x, scale, zp, pv, out, n);
  } else {
    if (half_out) DequantizeBytesT<uint8_t, HalfLanes>(x, scale, zp, pv, out, n);
    else DequantizeBytesT<uint8_t, NativeLanes<float>>(x, scale, zp, pv, out, n);
  }
}

// Dequantize int32/uint32 in float64 lanes.
template <typename T, class OutMem>
HWY_INLINE void Dequantize32T(const void* x_raw, const double* scale, const double* zp, bool pv, void* out_raw,
                              size_t n) {
  const T* x = static_cast<const T*>(x_raw);
  auto* out = static_cast<typename OutMem::M*>(out_raw);
  const hn::ScalableTag<double> d;
  const auto s_splat = hn::Set(d, scale[0]);
  const auto z_splat = hn::Set(d, zp[0]);
  ForEachVectorOf(hn::Lanes(d), n, [&](size_t k, size_t c) {
    const auto vx = Int32AsF64Lanes<T>::Load(d, x + k, c);
    const auto s = pv ? LoadPart(d, scale + k, c) : s_splat;
    const auto z = pv ? LoadPart(d, zp + k, c) : z_splat;
    OutMem::Store(hn::Mul(hn::Sub(vx, z), s), d, out + k, c);  // the difference is exact (< 2^33)
  });
}

void Dequantize32(bool is_signed, bool half_out, const void* x, const double* scale, const double* zp, bool pv,
                  void* out, size_t n) {
  if (is_signed) {
    if (half_out) Dequantize32T<int32_t, HalfAsF64Lanes>(x, scale, zp, pv, out, n);
    else Dequantize32T<int32_t, FloatAsF64Lanes>(x, scale, zp, pv, out, n);
  } else {
    if (half_out) Dequantize32T<uint32_t, HalfAsF64Lanes>(x, scale, zp, pv, out, n);
    else Dequantize32T<uint32_t, FloatAsF64Lanes>(x, scale, zp, pv, out, n);
  }
}

void Unpack4(const uint8_t* in, uint8_t* out, size_t n, bool is_signed) { UnpackNibbles(in, out, n, is_signed); }
void Pack4(const uint8_t* in, uint8_t* out, size_t n) { PackNibbles(in, out, n); }

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(QuantizeBytes);
HWY_EXPORT(Quantize32);
HWY_EXPORT(DequantizeBytes);
HWY_EXPORT(Dequantize32);
HWY_EXPORT(Unpack4);
HWY_EXPORT(Pack4);

namespace {

bool Is4Bit(DataType t) { return t == DataType::kInt4 || t == DataType::kUint4; }

// The input walked as rows of its (collapsed) innermost dimension; scale and
// zeroPoint are constant over blocks of `block_inner` elements of a row.
struct BlockPlan {
  uint64_t inner = 1;        // elements per row
  uint64_t block_inner = 1;  // elements per parameter along the row
  std::vector<uint64_t> outer_sizes, outer_blocks, outer_param_strides;

  BlockPlan(const std::vector<uint32_t>& input, const std::vector<uint32_t>& param) {
    // Collapse: drop size-1 input dims; merge neighbours that are both
    // broadcast (param 1) or both one parameter per element.
    std::vector<uint64_t> sizes, psizes;
    for (size_t d = 0; d < input.size(); ++d) {
      if (input[d] == 1) continue;
      const bool bcast = param[d] == 1, full = param[d] == input[d];
      if (!sizes.empty()) {
        const bool prev_bcast = psizes.back() == 1, prev_full = psizes.back() == sizes.back();
        if ((bcast && prev_bcast) || (full && prev_full)) {
          sizes.back() *= input[d];
          psizes.back() *= param[d];
          continue;
        }
      }
      sizes.push_back(input[d]);
      psizes.push_back(param[d]);
    }
    if (sizes.empty()) return;
    inner = sizes.back();
    block_inner = sizes.back() / psizes.back();
    sizes.pop_back();
    psizes.pop_back();
    outer_sizes = sizes;
    // Row-major strides of the parameter tensor over the kept dims.
    uint64_t stride = inner / block_inner;
    outer_param_strides.assign(sizes.size(), 0);
    outer_blocks.assign(sizes.size(), 1);
    for (size_t d = sizes.size(); d-- > 0;) {
      outer_param_strides[d] = stride;
      outer_blocks[d] = sizes[d] / psizes[d];
      stride *= psizes[d];
    }
  }

  uint64_t RowParamOffset(uint64_t r) const {
    uint64_t off = 0;
    for (size_t d = outer_sizes.size(); d-- > 0;) {
      off += (r % outer_sizes[d]) / outer_blocks[d] * outer_param_strides[d];
      r /= outer_sizes[d];
    }
    return off;
  }
};

// Element i of an integer tensor (4-bit packed) as int64.
int64_t IntegerAt(const TensorView& t, uint64_t i) {
  const std::byte* d = t.data;
  return VisitType<TypeList<int8_t, uint8_t, int32_t, uint32_t>>(
      t.type,
      [&]<typename T>(TypeTag<T>) {
        T v;
        std::memcpy(&v, d + i * sizeof(v), sizeof(v));
        return static_cast<int64_t>(v);
      },
      [&]() -> int64_t {
        if (!Is4Bit(t.type)) return 0;
        const uint8_t byte = static_cast<uint8_t>(d[i / 2]);
        const int nibble = (i & 1) ? (byte >> 4) : (byte & 0xF);
        return t.type == DataType::kInt4 && nibble >= 8 ? nibble - 16 : nibble;
      });
}

double FloatAt(const TensorView& t, uint64_t i) {
  if (t.type == DataType::kFloat16) {
    uint16_t h;
    std::memcpy(&h, t.data + 2 * i, 2);
    return core::HalfBitsToDouble(h);
  }
  float f;
  std::memcpy(&f, t.data + 4 * i, 4);
  return f;
}

// scale and zeroPoint as arrays of the lanes' type (exact conversions).
struct QuantParams {
  std::vector<float> scale_f, zp_f;    // 8-bit and 4-bit integer side
  std::vector<double> scale_d, zp_d;   // 32-bit integer side
};

bool WideIntegers(DataType t) { return t == DataType::kInt32 || t == DataType::kUint32; }

std::shared_ptr<const QuantParams> MakeQuantParams(const TensorView& scale, const TensorView& zero_point, bool wide,
                                                   core::ParallelFor* parallel) {
  auto q = std::make_shared<QuantParams>();
  const size_t count = static_cast<size_t>(scale.elements());
  if (wide) q->scale_d.resize(count), q->zp_d.resize(count);
  else q->scale_f.resize(count), q->zp_f.resize(count);
  auto convert = [&](size_t begin, size_t end) {
    for (size_t p = begin; p < end; ++p) {
      const double s = FloatAt(scale, p);
      const double z = static_cast<double>(IntegerAt(zero_point, p));
      if (wide) q->scale_d[p] = s, q->zp_d[p] = z;
      else q->scale_f[p] = static_cast<float>(s), q->zp_f[p] = static_cast<float>(z);
    }
  };
  if (parallel) parallel->Run(count, 16384, convert);
  else convert(0, count);
  return q;
}

std::shared_ptr<const void> PrepareQuantizeLinear(const PrepareContext& ctx) {
  const TensorView& scale = ctx.inputs[1];
  const TensorView& zero_point = ctx.inputs[2];
  if (!scale.present() || !zero_point.present()) return nullptr;  // not constants: converted per dispatch
  const DataType int_type = ctx.op == OpKind::quantizeLinear ? ctx.outputs[0].type : ctx.inputs[0].type;
  ctx.packed_inputs |= 1u << 1 | 1u << 2;  // RunQuantizeLinear reads their shapes only
  auto q = MakeQuantParams(scale, zero_point, WideIntegers(int_type), nullptr);
  ctx.prepared_bytes += (q->scale_f.capacity() + q->zp_f.capacity()) * sizeof(float) +
                        (q->scale_d.capacity() + q->zp_d.capacity()) * sizeof(double);
  return q;
}

void RunQuantizeLinear(const KernelContext& ctx) {
  const bool quantize = ctx.op == OpKind::quantizeLinear;
  const TensorView& input = ctx.inputs[0];
  const TensorView& scale = ctx.inputs[1];
  const TensorView& zero_point = ctx.inputs[2];
  const TensorView& out = ctx.outputs[0];
  const DataType int_type = quantize ? out.type : input.type;
  const DataType float_type = quantize ? input.type : out.type;
  const bool wide = WideIntegers(int_type);  // float64 lanes
  const bool packed = Is4Bit(int_type);
  const bool is_signed = IsSignedInteger(int_type);
  const bool half = float_type == DataType::kFloat16;

  // Parameters as float32 (8/4-bit) or float64 (32-bit) arrays: converted once
  // at compile time when scale and zeroPoint are constants (weights, QDQ
  // graphs), else here.
  std::shared_ptr<const QuantParams> local;
  const QuantParams* params = static_cast<const QuantParams*>(ctx.prepared);
  if (!params) {
    local = MakeQuantParams(scale, zero_point, wide, &ctx.parallel);
    params = local.get();
  }
  const std::vector<float>& scale_f = params->scale_f;
  const std::vector<float>& zp_f = params->zp_f;
  const std::vector<double>& scale_d = params->scale_d;
  const std::vector<double>& zp_d = params->zp_d;
  int64_t lo = 0, hi = 0;
  switch (int_type) {
    case DataType::kInt8: lo = -128, hi = 127; break;
    case DataType::kUint8: lo = 0, hi = 255; break;
    case DataType::kInt32: lo = INT32_MIN, hi = INT32_MAX; break;
    case DataType::kUint32: lo = 0, hi = UINT32_MAX; break;
    case DataType::kInt4: lo = -8, hi = 7; break;
    default: lo = 0, hi = 15; break;
  }

  const BlockPlan plan(input.shape, scale.shape);
  const size_t n = static_cast<size_t>(input.elements());
  const size_t int_size = packed ? 1 : ByteLengthFor(int_type, 1);
  const size_t float_size = ByteLengthFor(float_type, 1);
  const std::byte* x_base = input.data;
  std::byte* out_base = out.data;

  // One run: n elements from element `at`, parameters from `p` (advancing iff pv).
  // 4-bit data is (un)packed per block by the caller; `ints` is then its bytes.
  auto run = [&](uint64_t at, uint64_t p, bool pv, size_t count, uint8_t* ints) {
    if (quantize) {
      const std::byte* x = x_base + at * float_size;
      if (wide) {
        HWY_DYNAMIC_DISPATCH(Quantize32)(half, x, scale_d.data() + p, zp_d.data() + p, pv,
                                         reinterpret_cast<uint32_t*>(out_base) + at, count, static_cast<double>(lo),
                                         static_cast<double>(hi));
      } else {
        HWY_DYNAMIC_DISPATCH(QuantizeBytes)(half, x, scale_f.data() + p, zp_f.data() + p, pv,
                                            ints ? ints : reinterpret_cast<uint8_t*>(out_base) + at, count,
                                            static_cast<float>(lo), static_cast<float>(hi));
      }
    } else {
      std::byte* o = out_base + at * float_size;
      if (wide) {
        HWY_DYNAMIC_DISPATCH(Dequantize32)(is_signed, half, x_base + at * int_size, scale_d.data() + p, zp_d.data() + p,
                                           pv, o, count);
      } else {
        HWY_DYNAMIC_DISPATCH(DequantizeBytes)(is_signed, half,
                                              ints ? ints : reinterpret_cast<const uint8_t*>(x_base) + at,
                                              scale_f.data() + p, zp_f.data() + p, pv, o, count);
      }
    }
  };

  // Blocks of <= 1024 elements (even starts, for 4-bit data).
  constexpr size_t kBlock = 1024;
  const size_t grain = wide ? kTranscendentalGrain : kElementwiseGrain / 4;
  ctx.parallel.Run((n + kBlock - 1) / kBlock, std::max<size_t>(1, grain / kBlock), [&](size_t b0, size_t b1) {
    uint8_t ints[kBlock + 2];
    for (size_t b = b0; b < b1; ++b) {
      const size_t begin = b * kBlock, end = std::min(n, begin + kBlock);
      if (packed && !quantize)
        HWY_DYNAMIC_DISPATCH(Unpack4)(reinterpret_cast<const uint8_t*>(x_base) + begin / 2, ints, end - begin,
                                      is_signed);
      for (uint64_t at = begin; at < end;) {
        const uint64_t r = at / plan.inner, c = at % plan.inner;
        const uint64_t p = plan.RowParamOffset(r) + c / plan.block_inner;
        const bool pv = plan.block_inner == 1;
        const uint64_t left = pv ? plan.inner - c : plan.block_inner - c % plan.block_inner;
        const size_t count = static_cast<size_t>(std::min<uint64_t>(left, end - at));
        run(at, p, pv, count, packed ? ints + (at - begin) : nullptr);
        at += count;
      }
      if (packed && quantize)
        HWY_DYNAMIC_DISPATCH(Pack4)(ints, reinterpret_cast<uint8_t*>(out_base) + begin / 2, end - begin);
    }
  });
}

}  // namespace

void RegisterQuantizeLinearKernels(OpKind op, KernelRegistry& registry) {
  // Every type pair the schema allows: float32/float16 with uint8, int8,
  // uint32, int32, uint4, int4.
  registry.Add(CpuKernel{op, &RunQuantizeLinear, &PrepareQuantizeLinear, {}, {}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
