// cpu kernel of fusedElementwise (src/ops/fused_elementwise.h): a chain of
// float32 element-wise ops in one pass over memory.
//
// The output is walked in blocks of kBlock elements (16 KiB), whole blocks per
// thread. Full-size inputs are read in place, single elements are splat, a
// repeated row (a bias along the last axes) is read from a tile of whole rows
// made once, and any other broadcast input is gathered into a per-thread
// buffer per block. The first step reads the starting value straight from its
// tensor and writes the block buffer, the middle steps run in place on it (in
// L1/L2), and the last one writes the output (streaming stores for large
// outputs). The next block's full-size inputs are prefetched in slices between
// the steps: without that, memory idles while a block computes and a chain
// of four cheap ops runs at half the speed. Each step is the op's own single-threaded SIMD row
// (ApplyUnaryF32 / ApplyBinaryF32 / ApplyActivationF32), so the results are
// bit-identical to running the ops one by one; only the memory traffic
// changes (one read of each input and one write of the output, instead of a
// write and a read of every intermediate).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cpu/fused_elementwise.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "ops/cpu/activation.h"
#include "ops/cpu/elementwise.h"
#include "ops/cpu/kernel_registry.h"
#include "ops/cpu/vector_math-inl.h"
#include "ops/fused_elementwise.h"

HWY_BEFORE_NAMESPACE();
namespace webnn::ops::cpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

struct CopyOp {
  template <class D, class V>
  HWY_INLINE V operator()(D, V x) const { return x; }
};

// The block buffer to the output, with streaming stores for large outputs.
void CopyRowF32(const float* in, float* out, size_t n, bool stream) {
  UnaryLoop<NativeLanes<float>>(CopyOp(), in, out, n, stream);
}

// dst[0, n) = an input upsampled nearest-neighbour by (fy, fx) along the
// last two axes, at output positions [p, p + n) of planes out_h x out_w:
// element [.., y, x] is data[.., y / fy, x / fx]. `data` has `size` floats.
// Where fx divides the lanes, whole vectors from one permutation of the
// next lanes / fx elements of the row (a vector's load may reach into the
// next row, never past the input).
void UpsampleBlockF32(const float* HWY_RESTRICT data, uint64_t size, uint64_t out_h, uint64_t out_w, uint32_t fy,
                      uint32_t fx, uint64_t p, size_t n, float* HWY_RESTRICT dst) {
  const uint64_t plane = out_h * out_w, in_w = out_w / fx, in_plane = (out_h / fy) * in_w;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<float> d;
  const size_t L = hn::Lanes(d);
  const bool vectors = fx > 1 && L % fx == 0 && L <= 64;
  HWY_ALIGN int32_t lanes[64] = {};
  for (size_t j = 0; vectors && j < L; ++j) lanes[j] = int32_t(j / fx);
  const auto index = hn::SetTableIndices(d, lanes);
#endif
  // The block's first output row; then row by row (no divisions per row).
  uint64_t image = p / plane, y = p % plane / out_w, x0 = p % out_w;
  for (size_t done = 0; done < n;) {
    const size_t len = static_cast<size_t>(std::min<uint64_t>(out_w - x0, n - done));
    const uint64_t row_start = image * in_plane + (y / fy) * in_w;
    const float* row = data + row_start;
    float* out = dst + done;
    size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    if (vectors) {
      for (; i < len && (x0 + i) % fx != 0; ++i) out[i] = row[(x0 + i) / fx];
      for (; i < len && row_start + (x0 + i) / fx + L <= size; i += L) {
        const auto v = hn::TableLookupLanes(hn::LoadU(d, row + (x0 + i) / fx), index);
        if (i + L <= len) {
          hn::StoreU(v, d, out + i);
        } else {
#if HWY_MEM_OPS_MIGHT_FAULT
          break;  // (a blended store may write the lanes past the row back)
#else
          hn::BlendedStore(v, hn::FirstN(d, len - i), d, out + i);
          i = len;
#endif
        }
      }
    }
#endif
    for (; i < len; ++i) out[i] = row[(x0 + i) / fx];
    done += len;
    x0 = 0;
    if (++y == out_h) y = 0, ++image;
  }
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace webnn::ops::cpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace webnn::ops::cpu {

HWY_EXPORT(CopyRowF32);
HWY_EXPORT(UpsampleBlockF32);

namespace {

// Output elements per block: 16 KiB, so the block and a few gathered operands
// stay in L1/L2 while every step runs over them.
constexpr size_t kBlock = 4096;

bool IsTranscendental(OpKind op) {
  switch (op) {
    case OpKind::cos:
    case OpKind::erf:
    case OpKind::exp:
    case OpKind::log:
    case OpKind::sin:
    case OpKind::tan:
    case OpKind::pow:
    case OpKind::elu:
    case OpKind::gelu:
    case OpKind::sigmoid:
    case OpKind::softplus:
    case OpKind::tanh: return true;
    default: return false;
  }
}

// How one input is read for a block of the output.
struct Source {
  enum class Kind { kFull, kScalar, kRepeatedRow, kGather, kUpsampled };
  Kind kind = Kind::kFull;
  const float* data = nullptr;
  // kGather: rows of `inner` output elements, along which the input advances
  // (contiguous) or repeats one element.
  uint64_t inner = 1;
  bool contiguous = false;
  size_t buffer = 0;  // index of its per-thread gather buffer
  size_t walker = 0;  // kGather: index of its RowWalker
  // kUpsampled: factors along the output's last two axes, whose sizes are
  // out_h and out_w (FusedElementwiseAttrs::upsample; same shape otherwise).
  uint32_t fy = 1, fx = 1;
  uint64_t out_h = 1, out_w = 1, size = 0;
  // kRepeatedRow (the whole input is one row, repeated: a bias along the last
  // axes): whole rows covering kBlock + inner elements; a block starting at
  // output position p reads tile[p % inner, ...).
  std::vector<float> tile;
};

// Asks for data[0, n) to be brought into the L2 cache.
void Prefetch(const float* data, size_t n) {
  constexpr size_t kLine = 64 / sizeof(float);
  for (size_t k = 0; k < n; k += kLine) __builtin_prefetch(data + k, 0, 2);
}

// Fills dst[0, n) with the input's elements at output positions [p, p + n).
void Gather(const Source& s, RowWalker& walker, uint64_t p, size_t n, float* dst) {
  uint64_t offset = walker.Seek(p / s.inner);
  uint64_t c = p % s.inner;
  for (size_t done = 0; done < n;) {
    const size_t len = static_cast<size_t>(std::min<uint64_t>(s.inner - c, n - done));
    if (s.contiguous) std::memcpy(dst + done, s.data + offset + c, len * sizeof(float));
    else std::fill_n(dst + done, len, s.data[offset]);
    done += len;
    c = 0;
    if (done < n) offset = walker.Next();
  }
}

void RunFusedElementwise(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<FusedElementwiseAttrs>(ctx.attrs);
  const TensorView& out = ctx.outputs[0];
  const uint64_t total = out.elements();
  if (total == 0) return;

  // Classify the inputs; the starting value is always read as a vector.
  std::vector<Source> sources(ctx.inputs.size());
  std::vector<BroadcastPlan> plans;
  size_t gathered = 0, walked = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const TensorView& in = ctx.inputs[i];
    Source& s = sources[i];
    s.data = in.as<const float>();
    if (attrs.upsampled(i)) {
      // The pass made its upsampled shape the output's (inputs[0] never is).
      s.kind = Source::Kind::kUpsampled;
      s.fy = attrs.upsample[i][0], s.fx = attrs.upsample[i][1];
      s.out_h = out.shape[out.rank() - 2], s.out_w = out.shape[out.rank() - 1], s.size = in.elements();
      if (i == 0 || in.rank() != out.rank() || in.elements() * s.fy * s.fx != total)
        throw std::logic_error("fusedElementwise: an upsampled input that does not upsample to the output");
      s.buffer = gathered++;
    } else if (in.elements() == total) {
      s.kind = Source::Kind::kFull;  // same shape up to leading/size-1 dims
    } else if (in.elements() == 1 && i != 0) {
      s.kind = Source::Kind::kScalar;
    } else {
      const BroadcastPlan plan(out.shape, {in.shape});
      s.inner = plan.inner();
      s.contiguous = plan.InnerContiguous(0);
      if (i != 0 && s.contiguous && in.elements() == s.inner && s.inner <= kBlock) {
        s.kind = Source::Kind::kRepeatedRow;
        const size_t rows = (kBlock + 2 * s.inner - 1) / s.inner;
        for (size_t r = 0; r < rows; ++r) s.tile.insert(s.tile.end(), s.data, s.data + s.inner);
      } else {
        s.kind = Source::Kind::kGather;
        s.buffer = gathered++;
        s.walker = walked++;
      }
    }
  }

  // The steps' activation constants, made once.
  std::vector<ActivationF32> activations(attrs.steps.size());
  bool heavy = false;
  for (size_t j = 0; j < attrs.steps.size(); ++j) {
    const FusedElementwiseStep& step = attrs.steps[j];
    if (IsActivation(step.op)) activations[j] = MakeActivationF32(step.op, step.activation);
    heavy = heavy || IsTranscendental(step.op);
  }
  const size_t steps = std::max<size_t>(1, attrs.steps.size());
  std::vector<const float*> full_inputs;
  for (const Source& src : sources)
    if (src.kind == Source::Kind::kFull) full_inputs.push_back(src.data);
  const size_t grain_elements = heavy ? kTranscendentalGrain : std::max(kTranscendentalGrain, kElementwiseGrain / steps);
  const bool stream = out.bytes() >= kStreamingBytes;
  float* const dst_base = out.as<float>();
  const size_t blocks = static_cast<size_t>((total + kBlock - 1) / kBlock);

  ctx.parallel.Run(blocks, std::max<size_t>(1, grain_elements / kBlock), [&](size_t first, size_t last) {
    // Per chunk: the block buffer, then one buffer per gathered input.
    std::vector<float> buffers((1 + gathered) * kBlock);
    float* const work = buffers.data();
    std::vector<RowWalker> walkers;
    walkers.reserve(walked);
    for (size_t i = 0; i < sources.size(); ++i)
      if (sources[i].kind == Source::Kind::kGather) walkers.emplace_back(out.shape, ctx.inputs[i].shape, sources[i].inner);

    for (size_t b = first; b < last; ++b) {
      const uint64_t p = uint64_t{b} * kBlock;
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kBlock, total - p));
      float* const dst = dst_base + p;
      // (pointer, advances along the block) of input i for this block.
      auto operand = [&](size_t i) -> std::pair<const float*, bool> {
        const Source& s = sources[i];
        switch (s.kind) {
          case Source::Kind::kFull: return {s.data + p, true};
          case Source::Kind::kScalar: return {s.data, false};
          case Source::Kind::kRepeatedRow: return {s.tile.data() + p % s.inner, true};
          case Source::Kind::kGather:
          case Source::Kind::kUpsampled: return {work + (1 + s.buffer) * kBlock, true};
        }
        return {nullptr, false};
      };
      for (size_t i = 0; i < sources.size(); ++i) {
        if (sources[i].kind == Source::Kind::kGather)
          Gather(sources[i], walkers[sources[i].walker], p, n, work + (1 + sources[i].buffer) * kBlock);
        if (const Source& s = sources[i]; s.kind == Source::Kind::kUpsampled)
          HWY_DYNAMIC_DISPATCH(UpsampleBlockF32)(s.data, s.size, s.out_h, s.out_w, s.fy, s.fx, p, n,
                                                 work + (1 + s.buffer) * kBlock);
      }

      // The next block's full-size inputs are prefetched a slice before each
      // step, so memory stays busy while the steps compute.
      const uint64_t next = p + kBlock;
      const size_t next_n = next < total ? static_cast<size_t>(std::min<uint64_t>(kBlock, total - next)) : 0;
      const size_t slice = (next_n + steps - 1) / steps;

      const float* x = operand(0).first;  // the running value
      for (size_t j = 0; j < attrs.steps.size(); ++j) {
        const FusedElementwiseStep& step = attrs.steps[j];
        const bool final_step = j + 1 == attrs.steps.size();
        for (const float* data : full_inputs)
          Prefetch(data + next + j * slice, std::min(slice, next_n - std::min(next_n, j * slice)));
        if (IsActivation(step.op)) {
          // In place on the block buffer (the output is written after the loop).
          if (x != work) std::memcpy(work, x, n * sizeof(float));
          ApplyActivationF32(activations[j], work, n);
          x = work;
          continue;
        }
        float* y = final_step ? dst : work;
        if (IsElementwiseBinary(step.op)) {
          const auto [other, other_vec] =
              step.operand == FusedElementwiseStep::kRunningValue ? std::pair<const float*, bool>{x, true}
                                                                  : operand(static_cast<size_t>(step.operand));
          if (step.running_is_b) ApplyBinaryF32(step.op, other, other_vec, x, true, y, n, stream && final_step);
          else ApplyBinaryF32(step.op, x, true, other, other_vec, y, n, stream && final_step);
        } else {
          ApplyUnaryF32(step.op, x, y, n, stream && final_step);
        }
        x = y;
      }
      if (x != dst) HWY_DYNAMIC_DISPATCH(CopyRowF32)(x, dst, n, stream);
    }
  });
}

}  // namespace

void RegisterFusedElementwiseKernels(OpKind op, KernelRegistry& registry) {
  registry.Add(CpuKernel{op, &RunFusedElementwise, nullptr, {DataTypeSet{DataType::kFloat32}},
                         {DataTypeSet{DataType::kFloat32}}});
}

}  // namespace webnn::ops::cpu
#endif  // HWY_ONCE
