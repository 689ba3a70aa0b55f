// The cpu device's float32 GEMM core, shared by matmul, gemm, conv2d (1x1 and
// implicit-GEMM paths), convTranspose2d and the recurrent ops.
//
//   C[m, n] = sum_k A[m, k] * B[k, n]   (+ bias[n]) then clamped to [min, max]
//
// B is packed once (PackB) into panels laid out for the register-tiled
// micro-kernels of the best SIMD target; A is read in place (row-major with a
// leading dimension). The epilogue is applied while the tile is in registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/parallel.h"
#include "memory/workspace.h"

namespace webnn::ops::cpu {

// B[K, N] packed for GemmF32. Opaque to callers; built by PackB.
struct PackedB {
  size_t k = 0;
  size_t n = 0;
  size_t panel_width = 0;  // NR: columns per panel
  std::vector<float, std::allocator<float>> data;
  // Floats of `data` before the first panel: panels start on a 64-byte
  // boundary (a 512-bit load that straddles two cache lines costs two loads).
  size_t offset = 0;

  const float* panels() const { return data.data() + offset; }
  // Bytes held (accounted as constants (packed) when it is a constant's pack).
  size_t bytes() const { return data.capacity() * sizeof(float); }
};

// Packs B. `b` is row-major [K, N] with leading dimension `ldb`, or, when
// `transposed`, row-major [N, K] (i.e. B^T) with leading dimension `ldb`.
PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed);

struct GemmEpilogue {
  const float* bias = nullptr;  // [N] added to every row, or null
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

// C = A x B (+ epilogue). A: [M, K] row-major with leading dimension `lda`;
// C: [M, N] with leading dimension `ldc`. Splits the work over `parallel`.
void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, core::ParallelFor& parallel);

// ---- Extensions of the interface above -------------------------------------

// Columns per packed panel (NR) of the kernels the running CPU dispatches to.
size_t GemmPanelWidth();

// PackB splitting the panels over `parallel` (per-dispatch packing of weights
// that are not constants).
PackedB PackB(const float* b, size_t k, size_t n, size_t ldb, bool transposed, core::ParallelFor& parallel);

// PackB from IEEE binary16 (bit patterns): the panels hold float32, so a
// float16 GEMM runs the float32 kernels (exact widening, one rounding at the
// caller's float16 store).
PackedB PackBF16(const uint16_t* b, size_t k, size_t n, size_t ldb, bool transposed, core::ParallelFor& parallel);

struct GemmOptions {
  // `a` holds A^T: row-major [K, M] with leading dimension `lda`.
  bool a_transposed = false;
  // C = alpha * (A x B) (+ bias), then clamped.
  float alpha = 1.0f;
  // Adds to C's contents instead of overwriting: C = C + alpha * (A x B) (+ bias), then clamped.
  bool accumulate = false;
};

// GemmF32 with the options above.
void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const PackedB& b, float* c, size_t ldc,
             const GemmEpilogue& epilogue, const GemmOptions& options, core::ParallelFor& parallel);

// ---- A packed once, B made micro-panel by micro-panel --------------------------
// For a B that is not stored as floats (quantizedMatmul's int4/int8 weights):
// the caller packs A once (GemmPackLhsF32) and runs GemmF32Sourced on column
// chunks of B, on as many threads as it likes; the GEMM asks the source for
// each B micro-panel (one K block of one column panel) right before the tiles
// use it, so B exists as floats only in one L1-sized buffer per thread.

struct GemmPanelSource {
  // Writes rows [k0, k0 + kc) of column panel `panel` (columns panel *
  // GemmPanelWidth() onward) to dst as kc rows of GemmPanelWidth() floats.
  // Columns past the product's n are computed but never stored.
  void (*fill)(const void* context, size_t panel, size_t k0, size_t kc, float* dst);
  const void* context;
  // Optional: starts loading what fill(panel, k0, kc) will read, into the
  // caches, without waiting. The GEMM calls it for the next two micro-panels
  // right after each fill, so that later fills' reads arrive while the tiles
  // compute. `panel` may be past the last (the caller's next chunk).
  void (*prefetch)(const void* context, size_t panel, size_t k0, size_t kc) = nullptr;
};

// A [m, k] packed for GemmF32Sourced: row panels of the running CPU's
// kernels, K blocks of kc rows (the last may be shorter), `floats` floats.
struct PackedLhs {
  size_t m = 0, k = 0;
  size_t kc = 0;          // rows of B per fill (the last K block's may be fewer)
  size_t panel_rows = 0;  // the kernels' MR it was laid out for
  size_t floats = 0;
  const float* data = nullptr;
};

// The layout (data null) of an [m, k] A whose K blocks are multiples of
// k_align (a block the source fills whole, e.g. the quantization block;
// 1 for any).
PackedLhs GemmLhsLayout(size_t m, size_t k, size_t k_align);

// Packs A (row-major, leading dimension lda) into dst (layout.floats floats,
// 64-byte aligned), its row panels split over `parallel`; returns the layout
// with data = dst.
PackedLhs GemmPackLhsF32(const PackedLhs& layout, const float* a, size_t lda, float* dst,
                         core::ParallelFor& parallel);

// C [a.m, n] = A x B (+ epilogue), on the calling thread. Its scratch:
// AddGemmSourcedWorkspace.
void GemmF32Sourced(const PackedLhs& a, size_t n, const GemmPanelSource& b, float* c, size_t ldc,
                    const GemmEpilogue& epilogue);

// GemmF32 with B not packed: `b` as for PackB. M = 1 runs a memory-bound
// GEMV straight from `b`; row-major B with M <= 512 is read in place by the
// tiles; otherwise B is packed into workspace first (pack once with PackB
// instead when the same B is used again).
void GemmF32(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb, bool b_transposed,
             float* c, size_t ldc, const GemmEpilogue& epilogue, const GemmOptions& options,
             core::ParallelFor& parallel);

// Adds the workspace (memory::Scratch) of GemmF32 for an M x N x K product to
// `workspace`: B packed (a PackedB) or not, and whether the caller runs it
// inside a parallel-for body (`in_body`: all of it on that worker) or on the
// dispatching thread (its own share shared, the A packing per worker).
void AddGemmWorkspace(memory::WorkspaceSize& workspace, size_t m, size_t n, size_t k, bool b_packed,
                      bool b_transposed, bool in_body);

// Adds GemmF32Sourced's scratch (one B micro-panel) for each worker that runs it.
void AddGemmSourcedWorkspace(memory::WorkspaceSize& workspace, const PackedLhs& layout);

}  // namespace webnn::ops::cpu
