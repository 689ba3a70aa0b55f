// quantizedMatmul's GEMM on Intel AMX tiles (Advanced Matrix Extensions,
// bfloat16), with float32 activations kept exact: see quantized_matmul_amx.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/parallel.h"
#include "ops/cpu/gemm.h"
#include "ops/cpu/quantized_weights.h"

namespace webnn::ops::cpu::qmm {

// Whether this process can run AMX-BF16 tiles: the CPU has AMX-TILE,
// AMX-BF16 and AVX-512, the OS saves the tile state and (Linux) granted it to
// the process, and WEBNN_CPU_AMX=0 is not set in the environment. Decided
// once.
bool AmxAvailable();
// False turns the AMX GEMM off for the whole process (tests and benchmarks
// compare both paths); true turns it on again where AmxAvailable().
void SetAmxAllowed(bool allowed);

// Whether the AMX GEMM can run weights `p` on this machine: AmxAvailable(),
// float32 weights whose scales may be factored out of block sums
// (PackedWeights::factorable) and blocks of a multiple of 16 rows. Compiling
// a step: its workspace then includes the AMX GEMM's.
bool AmxFits(const PackedWeights& p);
// AmxFits and allowed (SetAmxAllowed): running a step.
bool AmxTakes(const PackedWeights& p);

// Fewer rows take the GEMM core: the tiles compute 32 rows at a time. The
// decoder's prefill at 1 thread (Xeon), AMX against the GEMM core: 8 tokens
// 132-137 / 100 ms, 12 tokens 134-137 / 113-115, 16 tokens 136-139 /
// 141-146, 32 tokens 159 / 225-233.
constexpr size_t kAmxMinRows = 16;

// Elements (uint16) of A packed for AmxGemm: m rows padded to 32, three
// bfloat16 per float.
size_t AmxLhsElements(size_t m, size_t k);
// Packs A [m, p.k] for AmxGemm into dst; false (dst partly written) when
// some a is neither 0 nor within 2^-96 <= |a| < 2^32, where the split into
// three bfloat16 would not be exact (see the .cc): run another path then.
bool AmxPackLhs(const PackedWeights& p, const float* a, size_t m, uint16_t* dst, core::ParallelFor& parallel);

// Bytes of scratch one AmxGemm call takes (memory::Scratch, per worker).
size_t AmxWorkerBytes(const PackedWeights& p);

// c[0:m, 0:cols] = A x W[:, n0:n0 + cols] + bias (from the epilogue's bias
// at column 0 of c), clamped to the epilogue's range. n0 is a multiple of 16
// (a column group); cols may end before the weights' last column.
void AmxGemm(const PackedWeights& p, const uint16_t* packed_a, size_t m, size_t n0, size_t cols, float* c,
             size_t ldc, const GemmEpilogue& epilogue);

}  // namespace webnn::ops::cpu::qmm
