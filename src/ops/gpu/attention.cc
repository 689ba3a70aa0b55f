// gpu kernel of attention (src/ops/attention.h): shaders/attention.comp, flash
// attention with a workgroup per query row (grid x, looping past 65535) and,
// where Dv is wider than one workgroup's output elements, a workgroup per
// chunk of them (grid y). Where the query or the output exceeds what one
// binding may span, their rows are split over several dispatches; the key,
// value and mask stay whole.
//
// Flash decoding: where the rows times the Dv workgroups cannot fill the
// device (an LLM decode step: B * Hq query rows of one position), while T
// spans several tiles, the keys are split into chunks of whole tiles (grid
// z) so that the workgroups reach a few hundred; attention_split writes each
// chunk's unnormalised partial result to float32 scratch and
// attention_combine merges a row's chunks (attention.comp's header).
#include <algorithm>

#include "core/strings.h"
#include "ops/attention.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {
namespace {

constexpr uint32_t kTile = 64;                    // attention.comp: kWidth, keys per tile
constexpr uint32_t kOutputsPerGroup = kTile * 4;  // kWidth threads x kSlots elements
constexpr uint32_t kPartialStatsBytes = 16;       // vec4 (m, l, NaN/+Inf count, unused)

// The split over keys: split when the rows' workgroups are fewer than half
// the target, into up to target / workgroups chunks of whole tiles. A GPU
// needs several 64-thread workgroups per multiprocessor to hide memory
// latency (an H100 has 132): 512 in all (a decode step of 14 rows over 513
// keys: 72 -> 23 us there; targets from 256 to 2048 time alike). Lavapipe
// runs a workgroup per CPU thread at a time, so a few dozen suffice, and
// splitting further would only add partials; it still splits decode-sized
// steps so that the path is tested.
constexpr uint64_t kGpuTargetGroups = 512;
constexpr uint64_t kCpuTargetGroups = 32;

// Keys per chunk (a multiple of kTile) where the split pays, else 0.
uint32_t SplitKeys(const GpuStepInfo& s, uint64_t row_groups, uint32_t t) {
  const uint64_t target = s.cpu_implementation ? kCpuTargetGroups : kGpuTargetGroups;
  const uint64_t tiles = (uint64_t{t} + kTile - 1) / kTile;
  if (tiles < 2 || row_groups * 2 > target) return 0;
  const uint64_t chunks = std::min(tiles, (target + row_groups - 1) / row_groups);
  const uint64_t tiles_per_chunk = (tiles + chunks - 1) / chunks;
  return Count32(tiles_per_chunk * kTile);
}

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<AttentionAttrs>(s.attrs);
  const GpuOperand& q = s.inputs[0];
  const GpuOperand& key = s.inputs[1];
  const GpuOperand& value = s.inputs[2];
  const GpuOperand& out = s.outputs[0];
  if (out.elements() == 0) return {};
  const uint32_t hq = q.shape[1], seq = q.shape[2], d = q.shape[3];
  const uint32_t hkv = key.shape[1], t = value.shape[2], dv = value.shape[3];
  const uint64_t rows = uint64_t{q.shape[0]} * hq * seq;
  const bool has_mask = s.has_input(3);

  GpuDispatch base;
  base.shader = core::StrCat("attention.", TypeSuffix(q.type));
  base.params = {0,
                 0,
                 hq,
                 seq,
                 t,
                 d,
                 dv,
                 hq / hkv,
                 attrs.key_transposed ? 1 : d,
                 attrs.key_transposed ? t : 1,
                 FloatBits(attrs.scale),
                 attrs.divide ? 1u : 0u,
                 has_mask ? 1u : 0u};
  // The mask's strides, right-aligned against the scores [B, Hq, S, T]; 0
  // where it broadcasts.
  uint32_t mask_strides[4] = {0, 0, 0, 0};
  if (has_mask) {
    const std::vector<uint32_t>& shape = s.inputs[3].shape;
    uint64_t stride = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      const uint32_t dim = shape[shape.size() - 1 - i];
      mask_strides[3 - i] = dim == 1 ? 0 : Count32(stride);
      stride *= dim;
    }
  }
  base.params.insert(base.params.end(), std::begin(mask_strides), std::end(mask_strides));
  // Rows per dispatch: the query's and the output's within one binding (4 KiB
  // of slack for its alignment).
  const uint64_t row_bytes = uint64_t{std::max(d, dv)} * ByteLengthFor(q.type, 1);
  const uint64_t chunk = std::max<uint64_t>((s.max_binding_bytes - 4096) / std::max<uint64_t>(row_bytes, 1), 1);
  const uint32_t dv_groups = (dv + kOutputsPerGroup - 1) / kOutputsPerGroup;
  GpuPlan plan;
  // Split over keys only where every row fits one dispatch (few rows do,
  // unless D is huge): the combine then covers them all at once.
  const uint32_t split_keys = rows <= chunk ? SplitKeys(s, rows * dv_groups, t) : 0;
  if (split_keys != 0) {
    const uint32_t chunks = (t + split_keys - 1) / split_keys;
    const uint64_t records = rows * chunks;
    plan.scratch_bytes = {records * dv * 4, records * kPartialStatsBytes};
    GpuDispatch split = base;
    split.shader = core::StrCat("attention_split.", TypeSuffix(q.type));
    split.bindings = {GpuBinding::Input(0), GpuBinding::Input(1),   GpuBinding::Input(2),
                      s.InputOrFirst(3),    GpuBinding::Scratch(0), GpuBinding::Scratch(1)};
    split.params[1] = Count32(rows);
    split.params.push_back(split_keys);
    split.params.push_back(chunks);
    split.groups = {Count32(rows), dv_groups, chunks};
    plan.dispatches.push_back(std::move(split));
    GpuDispatch combine;
    combine.shader = core::StrCat("attention_combine.", TypeSuffix(q.type));
    combine.bindings = {GpuBinding::Scratch(0), GpuBinding::Scratch(1), GpuBinding::Output(0)};
    combine.params = {Count32(rows), dv, chunks};
    combine.groups = GridFor(rows * dv);
    plan.dispatches.push_back(std::move(combine));
    return plan;
  }
  base.params.push_back(t);  // one chunk of all the keys
  base.params.push_back(1);
  for (uint64_t first = 0; first < rows; first += chunk) {
    const uint64_t count = std::min(chunk, rows - first);
    GpuDispatch part = base;
    part.bindings = {GpuBinding::Input(0).Range(first * d, count * d), GpuBinding::Input(1), GpuBinding::Input(2),
                     s.InputOrFirst(3), GpuBinding::Output(0).Range(first * dv, count * dv)};
    part.params[0] = Count32(first);
    part.params[1] = Count32(count);
    part.groups = {static_cast<uint32_t>(std::min<uint64_t>(count, 65535)), dv_groups, 1};
    plan.dispatches.push_back(std::move(part));
  }
  return plan;
}

}  // namespace

GpuKernelEntry GpuKernel_attention() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
