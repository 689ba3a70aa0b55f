#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/float16.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "ops/cpu/float16-inl.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {

void WidenRow(const uint16_t* HWY_RESTRICT src, float* HWY_RESTRICT dst, size_t count) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<uint16_t, decltype(d)> du16;
  const size_t n = hn::Lanes(d);
  size_t i = 0;
  for (; i + n <= count; i += n) hn::StoreU(F16BitsToF32(d, hn::LoadU(du16, src + i)), d, dst + i);
  if (i < count) {  // the tail through a buffer: never touches memory past the end
    HWY_ALIGN uint16_t in[HWY_MAX_BYTES / 2] = {};
    HWY_ALIGN float out[HWY_MAX_BYTES / 4];
    for (size_t j = i; j < count; ++j) in[j - i] = src[j];
    hn::Store(F16BitsToF32(d, hn::Load(du16, in)), d, out);
    for (size_t j = i; j < count; ++j) dst[j] = out[j - i];
  }
}

void NarrowRow(const float* HWY_RESTRICT src, uint16_t* HWY_RESTRICT dst, size_t count) {
  const hn::ScalableTag<float> d;
  const hn::Rebind<uint16_t, decltype(d)> du16;
  const size_t n = hn::Lanes(d);
  size_t i = 0;
  for (; i + n <= count; i += n) hn::StoreU(F32ToF16Bits(d, hn::LoadU(d, src + i)), du16, dst + i);
  if (i < count) {
    HWY_ALIGN float in[HWY_MAX_BYTES / 4] = {};
    HWY_ALIGN uint16_t out[HWY_MAX_BYTES / 2];
    for (size_t j = i; j < count; ++j) in[j - i] = src[j];
    hn::Store(F32ToF16Bits(d, hn::Load(d, in)), du16, out);
    for (size_t j = i; j < count; ++j) dst[j] = out[j - i];
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "ops/cpu/float16.h"

namespace webnn::ops::cpu {

HWY_EXPORT(WidenRow);
HWY_EXPORT(NarrowRow);

namespace {
constexpr size_t kConvertGrain = 32768;
}  // namespace

void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count) { HWY_DYNAMIC_DISPATCH(WidenRow)(src, dst, count); }
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count) { HWY_DYNAMIC_DISPATCH(NarrowRow)(src, dst, count); }

void ConvertF16ToF32(const uint16_t* src, float* dst, size_t count, core::ParallelFor& parallel) {
  parallel.Run(count, kConvertGrain, [&](size_t b, size_t e) { ConvertF16ToF32(src + b, dst + b, e - b); });
}
void ConvertF32ToF16(const float* src, uint16_t* dst, size_t count, core::ParallelFor& parallel) {
  parallel.Run(count, kConvertGrain, [&](size_t b, size_t e) { ConvertF32ToF16(src + b, dst + b, e - b); });
}

F32Input::F32Input(const TensorView* t, core::ParallelFor& parallel)
    : copy_(t && t->present() && t->type == DataType::kFloat16 ? t->elements() : 0, "float16 input widened"),
      data_(nullptr) {
  if (t == nullptr || !t->present()) return;
  if (t->type == DataType::kFloat32) {
    data_ = t->as<float>();
    return;
  }
  ConvertF16ToF32(t->as<uint16_t>(), copy_.data(), copy_.size(), parallel);
  data_ = copy_.data();
}

// At prepare a tensor that is not a constant has no data, and an absent one
// is a default (float32) view: the type tells.
void AddF32InputWorkspace(memory::WorkspaceSize& workspace, const TensorView* t) {
  if (t && t->type == DataType::kFloat16) workspace.AddShared<float>(t->elements());
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
