// The matrix product shared by the gpu kernels of matmul and gemm: which of
// shaders/matmul.comp (64x64 tiles), shaders/matmul_coopmat.comp (float16
// through cooperative matrices, 128x128 tiles) and shaders/matmul_vec.comp
// (column strips, for few rows of A) runs it, and on what grid. The shaders
// take the same parameters (matmul.comp's P(0..31), then the epilogue's).
#pragma once

#include <cstdint>

#include "ops/gpu/gpu_kernel.h"

namespace webnn::ops::gpu {

// Sets d.shader and d.groups for an [m, n] output over `batches` batches of
// `type`, and matmul_vec.comp's specialization constants 2 and 3 after the
// epilogue's 0 and 1 (call AddEpilogue first). `rows_contiguous`: A' and B'
// are row-major (no transpose), which matmul_coopmat.comp needs. Defined in
// matmul.cc.
void SetProductShader(GpuDispatch& d, const GpuStepInfo& step, uint32_t m, uint32_t n, uint64_t batches,
                      DataType type, bool rows_contiguous);

}  // namespace webnn::ops::gpu
