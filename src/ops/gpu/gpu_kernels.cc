// The gpu kernel registry and the helpers kernels share.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "core/strings.h"
#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {

#define WEBNN_GPU_FAMILY(family) GpuKernelEntry GpuKernel_##family();
#include "gpu_kernel_list.inc"
#undef WEBNN_GPU_FAMILY

namespace {

// "ElementwiseBinary" -> "elementwise_binary": op_list.inc's family names as
// the file names the build lists.
std::string FileName(std::string_view family) {
  std::string out;
  for (char c : family) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

GpuKernelEntry FindGpuKernel(OpKind op) {
  static const std::array<GpuKernelEntry, kOpKindCount> table = [] {
    std::array<GpuKernelEntry, kOpKindCount> t{};
    for (int i = 0; i < kOpKindCount; ++i) {
      const std::string file = FileName(OpFamily(static_cast<OpKind>(i)));
#define WEBNN_GPU_FAMILY(family) \
  if (file == #family) t[i] = GpuKernel_##family();
#include "gpu_kernel_list.inc"
#undef WEBNN_GPU_FAMILY
    }
    return t;
  }();
  return table[static_cast<int>(op)];
}

uint64_t GpuOperand::elements() const { return core::ElementCount(shape); }

std::string_view TypeSuffix(DataType type) {
  switch (type) {
    case DataType::kFloat32: return "f32";
    case DataType::kFloat16: return "f16";
    case DataType::kInt32: return "i32";
    case DataType::kUint32: return "u32";
    case DataType::kInt64: return "i64";
    case DataType::kUint64: return "u64";
    case DataType::kInt8: return "i8";
    case DataType::kUint8: return "u8";
    case DataType::kInt4: return "i4";
    case DataType::kUint4: return "u4";
  }
  return "?";
}

std::array<uint32_t, 3> GridFor(uint64_t n, uint32_t local) {
  const uint64_t groups = (n + local - 1) / local;
  return {static_cast<uint32_t>(std::clamp<uint64_t>(groups, 1, 65535)), 1, 1};
}

void PushShape(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape) {
  params.push_back(static_cast<uint32_t>(shape.size()));
  for (size_t i = 0; i < core::kMaxRank; ++i) params.push_back(i < shape.size() ? shape[i] : 1);
}

void PushBroadcastStrides(std::vector<uint32_t>& params, const std::vector<uint32_t>& shape,
                          const std::vector<uint32_t>& out_shape) {
  std::array<uint32_t, core::kMaxRank> strides{};
  const size_t lead = out_shape.size() - shape.size();
  uint64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[lead + i] = shape[i] == 1 ? 0 : static_cast<uint32_t>(stride);
    stride *= shape[i];
  }
  for (uint32_t s : strides) params.push_back(s);
}

uint32_t Count32(uint64_t n) {
  if (n > UINT32_MAX) throw NotSupportedError(core::StrCat("gpu device: ", n, " elements exceed 2^32"));
  return static_cast<uint32_t>(n);
}

GpuPlan SplitElementwise(const GpuDispatch& d, uint64_t n, uint64_t element_bytes, uint64_t max_binding_bytes) {
  // 4 KiB of slack covers the binding's alignment.
  const uint64_t chunk = std::max<uint64_t>((max_binding_bytes - 4096) / std::max<uint64_t>(element_bytes, 1), 1);
  GpuPlan plan;
  if (n <= chunk) {
    plan.dispatches.push_back(d);
    return plan;
  }
  for (uint64_t first = 0; first < n; first += chunk) {
    GpuDispatch part = d;
    const uint64_t count = std::min(chunk, n - first);
    for (GpuBinding& b : part.bindings) b = b.Range(first, count);
    part.params[0] = Count32(count);
    part.groups = GridFor(count);
    plan.dispatches.push_back(std::move(part));
  }
  return plan;
}

AxisRows RowsAroundAxis(const std::vector<uint32_t>& shape, uint32_t axis) {
  uint64_t outer = 1, inner = 1, total = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  for (uint32_t d : shape) total *= d;
  Count32(total);
  AxisRows r;
  r.rows = Count32(outer * inner);
  r.length = shape[axis];
  r.inner = static_cast<uint32_t>(inner);
  r.workgroup_per_row = r.length >= 64 && (inner == 1 || r.rows < 2048);
  r.groups = r.workgroup_per_row ? std::array<uint32_t, 3>{std::min<uint32_t>(r.rows, 65535), 1, 1} : GridFor(r.rows);
  return r;
}

void PushU64(std::vector<uint32_t>& params, uint64_t v) {
  params.push_back(static_cast<uint32_t>(v));
  params.push_back(static_cast<uint32_t>(v >> 32));
}

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace webnn::ops::gpu
