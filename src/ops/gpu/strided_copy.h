// Shared by the data-movement kernels: the strided box copy
// (shaders/transpose_copy.comp) that transpose, reshape, expand, concat,
// slice, split, tile and reverse plan with, and the small helpers the
// bit-moving shaders (pad, gather, scatter, triangular) share.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {

// Element size in bits (8, 16, 32, 64): the variant suffix of transpose_copy
// and the other bit-moving shaders. NotSupportedError for packed 4-bit types.
uint32_t ElementBits(DataType type);

// Row-major element strides of `shape` as signed values.
std::vector<int64_t> ContiguousStrides(const std::vector<uint32_t>& shape);

// Appends the dispatches that copy the box `shape`: element c goes to
// dst_offset + sum(c[d] * dst_strides[d]) from src_offset + sum((c[d] % wrap[d])
// * src_strides[d]) (`wrap` empty: no wrapping). Strides may be negative
// (reverse). A box wider than one binding may span is split into several
// dispatches.
void StridedCopy(GpuPlan& plan, uint64_t max_binding_bytes, DataType type, GpuBinding src, GpuBinding dst,
                 const std::vector<uint32_t>& shape, const std::vector<int64_t>& src_strides, int64_t src_offset,
                 const std::vector<int64_t>& dst_strides, int64_t dst_offset, const std::vector<uint32_t>& wrap);

// The index-kind parameter of gather_index.glsl (gather.cc; scatter uses it too):
// 0 int32, 1 uint32, 2 int64.
uint32_t IndexKind(DataType type);

}  // namespace webnn::ops::gpu
