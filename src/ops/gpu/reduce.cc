// gpu kernel of reduceL1, reduceL2, reduceLogSum, reduceLogSumExp, reduceMax,
// reduceMean, reduceMin, reduceProduct, reduceSum, reduceSumSquare:
// shaders/reduce.comp. Every output element (a "row") reduces one window of
// the input: the kept axes pick the row, the reduced axes walk the window.
#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"
#include "ops/reduce.h"

namespace webnn::ops::gpu {
namespace {

uint32_t OpCode(OpKind op) {
  switch (op) {
    case OpKind::reduceL1: return 0;
    case OpKind::reduceL2: return 1;
    case OpKind::reduceLogSum: return 2;
    case OpKind::reduceLogSumExp: return 3;
    case OpKind::reduceMax: return 4;
    case OpKind::reduceMean: return 5;
    case OpKind::reduceMin: return 6;
    case OpKind::reduceProduct: return 7;
    case OpKind::reduceSum: return 8;
    default: return 9;  // reduceSumSquare
  }
}

// Dimensions of one group (kept or reduced) as the shader walks them: size-1
// dimensions dropped and neighbours whose strides chain merged, so the common
// cases (reduce the last axes, reduce the first ones) become one or two loops.
struct Dims {
  std::vector<uint32_t> size, stride;
  void Add(uint32_t n, uint32_t s, bool adjacent) {
    if (n == 1) return;
    if (adjacent && !size.empty() && stride.back() == static_cast<uint64_t>(s) * n) {
      size.back() *= n;
      stride.back() = s;
      return;
    }
    size.push_back(n);
    stride.push_back(s);
  }
  void Push(std::vector<uint32_t>& params) const {
    params.push_back(static_cast<uint32_t>(size.size()));
    for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < size.size() ? size[i] : 1);
    for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < size.size() ? stride[i] : 0);
  }
};

GpuPlan Plan(const GpuStepInfo& s) {
  const auto& attrs = AttrsAs<ReduceAttrs>(s.attrs);
  const GpuOperand& in = s.inputs[0];
  const uint32_t rank = static_cast<uint32_t>(in.shape.size());
  std::vector<bool> reduced(rank, false);
  for (uint32_t axis : ResolveReduceAxes(attrs, rank)) reduced[axis] = true;
  Count32(in.elements());
  std::vector<uint32_t> strides(rank);
  for (uint32_t i = rank, st = 1; i-- > 0;) {
    strides[i] = st;
    st *= in.shape[i];
  }
  Dims kept, window;
  int last = -1;  // group of the previous non-1 dimension: 0 kept, 1 reduced
  for (uint32_t i = 0; i < rank; ++i) {
    const int group = reduced[i] ? 1 : 0;
    (reduced[i] ? window : kept).Add(in.shape[i], strides[i], last == group);
    if (in.shape[i] != 1) last = group;
  }
  const uint32_t rows = Count32(s.outputs[0].elements());
  uint64_t count64 = 1;
  for (uint32_t n : window.size) count64 *= n;
  const uint32_t count = Count32(count64);
  const bool contiguous = !window.size.empty() && window.stride.back() == 1;
  // A workgroup per row when the window is long enough for 256 threads and
  // its last loop is contiguous (coalesced loads), or when there are too few
  // rows to fill the device one thread per row. Otherwise a thread per row:
  // when the kept axes are innermost, neighbouring threads then read
  // neighbouring elements.
  const bool workgroup_per_row = count >= 64 && (contiguous || rows < 2048);
  GpuDispatch d;
  d.shader = core::StrCat("reduce.", TypeSuffix(in.type));
  d.bindings = {GpuBinding::Input(0), GpuBinding::Output(0)};
  d.params = {rows, count, OpCode(s.op), workgroup_per_row ? 1u : 0u};
  d.constants = {OpCode(s.op)};
  kept.Push(d.params);
  window.Push(d.params);
  d.groups = workgroup_per_row ? std::array<uint32_t, 3>{std::min<uint32_t>(rows, 65535), 1, 1} : GridFor(rows);
  return {{d}, {}};
}

}  // namespace

GpuKernelEntry GpuKernel_reduce() { return {&Plan, nullptr}; }

}  // namespace webnn::ops::gpu
