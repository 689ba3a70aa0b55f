// quantizedMatmul's GEMM (M >= kAmxMinRows, the prefill) on Intel AMX tiles.
//
// Why: one TDPBF16PS multiplies a 16 x 32 bfloat16 tile by a 32 x 16 one
// into 16 x 16 float32 sums, 8,192 multiply-adds; one Xeon (Sapphire Rapids)
// vCPU ran 3.5 TFLOP/s of them against 232 GFLOP/s of float32 FMAs.
//
// Float32 activations, kept exact: each a is split into three bfloat16,
// hi = bf16(a), mid = bf16(a - hi), lo = bf16(a - hi - mid) (each rounded to
// nearest even), and hi + mid + lo == a exactly: each part takes the next 8
// or more of a's 24 significant bits, and the differences are exact in
// float32. The weights enter as code - zero point, integers of at most 255 in
// magnitude, exact in bfloat16, and a part times a code (16 significant bits
// at most) is exact in the tiles' float32. So per segment of a weight block
// the tiles sum exact products of a and (code - zero point) in float32, and
// the block's scale multiplies that sum once: the factored form of the GEMV
// (QuantizedMatmulF32), which moves the rounding from the weights to the
// block sums and changes nothing else. It is taken under the GEMV's
// condition (PackedWeights::factorable) and where every a is 0 or
// 2^-96 <= |a| < 2^32: AMX reads bfloat16 subnormals as 0, and from 2^-96 on
// the lowest part (>= 2^-96 * 2^-23) and every nonzero sum of products stay
// normal; below 2^32 no sum overflows where dequantizeLinear + matmul do not.
//
// Tiles: C 0-3 (two row tiles x two column tiles, 32 x 32 floats), A 4-5
// (16 rows x KS bfloat16 each), B 6-7 (KS / 2 rows of 16 column pairs: the
// VNNI layout, rows k and k + 1 of a column side by side, which is how the
// 4-bit codes are packed already: low nibble row k, high nibble row k + 1).
// Per K step (KS = 32 rows, 16 for blocks of an odd multiple of 16): two B
// loads, then per part of A two A loads and four products: 12 products per
// 8 tile loads. After each segment (a block, or 256 rows of a larger one) the
// four C tiles go to a 4 KiB buffer; every 4 segments C += the sum of
// scale x segment sums (AVX-512), one pass over C's 32 x 32 floats.
//
// Loop nest per call: passes of up to 8 column panels (32 columns each) >
// K chunks of ~512 rows (B of the pass and chunk, dequantized to bfloat16
// tiles once: 256 KiB at most, in L2) > row pairs > panels > segments.
// 128 x 896 x 4864 int4, Xeon (Sapphire Rapids) vCPU: 3.3-3.7 ms, 300-340
// GFLOP/s (3 x 0.9-1.0 TFLOP/s of bfloat16 products, a third of the tile
// unit's peak):
// the tile loads of A and B from L2 (8 KiB per 12 products) and the adds
// take the rest.
#include "ops/cpu/quantized_matmul_amx.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "memory/workspace.h"

#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define WEBNN_AMX 1
#include <cpuid.h>
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#define WEBNN_AMX 0
#endif

namespace webnn::ops::cpu::qmm {
namespace {

std::atomic<bool> g_allowed{true};

constexpr size_t kRowPair = 32;       // rows of A per pair of row tiles
constexpr size_t kPanel = 32;         // columns per panel (two groups, two column tiles)
constexpr size_t kPanelsPerPass = 8;  // panels whose B tiles are made per K chunk
constexpr size_t kMaxSegment = 256;   // K rows between two applications of the scales
constexpr size_t kChunk = 512;        // K rows of B made per pass
// Segments whose sums are added to C together (16 KiB of sums, in L1). Per
// segment, C's 32 rows (at the output's row stride) went in and out of L1
// and the adds took half the GEMM's time; all of a chunk's (64 KiB) were
// read back from L2. 128 x 896 x 4864, Xeon, 1 thread: 1, 2, 4, 8, 16 per
// add 5.03, 3.75, 3.29, 3.30, 3.64 ms.
constexpr size_t kSegmentsPerAdd = 4;

size_t CeilDiv(size_t a, size_t b) { return (a + b - 1) / b; }

// K steps and chunks of the weights' block size (a multiple of 16).
struct Geometry {
  size_t ks, seg, kc;
  explicit Geometry(const PackedWeights& p) {
    ks = p.block % 32 == 0 ? 32 : 16;
    seg = std::min(p.block, kMaxSegment) / ks * ks;
    while (p.block % seg != 0) seg -= ks;  // ends at ks at the latest
    kc = std::max(seg, kChunk / seg * seg);
  }
  size_t a_tile() const { return 16 * ks; }  // uint16 per A tile
  size_t b_tile() const { return ks * 16; }  // uint16 per B tile: ks / 2 rows of 32
};

#if WEBNN_AMX
bool DetectAmx() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1)) return false;  // OSXSAVE
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const bool avx512 = (ebx >> 16 & 1) && (ebx >> 17 & 1) && (ebx >> 30 & 1) && (ebx >> 31 & 1);  // F DQ BW VL
  const bool amx = (edx >> 24 & 1) && (edx >> 22 & 1);                                          // TILE, BF16
  if (!avx512 || !amx) return false;
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  const uint64_t xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  const uint64_t wanted = 0xE6 | (uint64_t{3} << 17);  // SSE, AVX, opmask, ZMM state; tile config and data
  if ((xcr0 & wanted) != wanted) return false;
  // Linux hands out the 8 KiB of tile state per process on request.
  constexpr long kReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kReqXcompPerm, kXfeatureXtiledata) == 0;
}

// GCC 12 warns of the "undefined" vectors inside its AVX-512 shift intrinsics
// when they are inlined into a function with a target attribute (a false
// positive that GCC 13 no longer reports).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define WEBNN_AMX_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,amx-tile,amx-bf16")))
// The tile intrinsics are asm statements that do not tell the compiler they
// read or write memory: a barrier orders them with the plain loads and stores
// of the same buffers.
#define WEBNN_AMX_BARRIER() __asm__ volatile("" ::: "memory")

struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

// bfloat16 bits (low 16 of each lane) of v, rounded to nearest even (finite v).
WEBNN_AMX_TARGET inline __m512i Bf16Bits(__m512 v) {
  const __m512i bits = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
  return _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7FFF)), lsb), 16);
}
WEBNN_AMX_TARGET inline __m512 Bf16Value(__m512i bf16_bits) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(bf16_bits, 16));
}

// Rows [rt * 16, rt * 16 + 16) of A (zero past m) into their tiles: per K
// step s and part x, 16 rows of ks bfloat16. False if some a is out of range.
WEBNN_AMX_TARGET bool PackRowTile(const Geometry& geo, const float* a, size_t m, size_t k, size_t rt, uint16_t* dst) {
  const size_t steps = k / geo.ks;
  const __m512i abs_mask = _mm512_set1_epi32(0x7FFFFFFF);
  const __m512i smallest = _mm512_set1_epi32(0x0F800000);  // 2^-96
  const __m512i limit = _mm512_set1_epi32(0x4F800000);     // 2^32
  __mmask16 bad = 0;
  // Step by step, so that the stores fill each step's three tiles (3 KiB)
  // in order: row by row they went 3 KiB apart over all of K (128 x 4864,
  // 3.7 MB packed, 1 thread: 0.35-0.38 -> 0.24 ms).
  for (size_t s = 0; s < steps; ++s) {
    for (size_t i = 0; i < 16; ++i) {
      const size_t row = rt * 16 + i;
      uint16_t* out = dst + (rt * steps + s) * 3 * geo.a_tile() + i * geo.ks;
      for (size_t h = 0; h < geo.ks; h += 16) {
        const __m512 x = row < m ? _mm512_loadu_ps(a + row * k + s * geo.ks + h) : _mm512_setzero_ps();
        const __m512i magnitude = _mm512_and_si512(_mm512_castps_si512(x), abs_mask);
        bad |= _mm512_test_epi32_mask(magnitude, magnitude) &
               (_mm512_cmplt_epi32_mask(magnitude, smallest) | _mm512_cmpge_epi32_mask(magnitude, limit));
        const __m512i hi = Bf16Bits(x);
        const __m512 r1 = _mm512_sub_ps(x, Bf16Value(hi));
        const __m512i mid = Bf16Bits(r1);
        const __m512i lo = Bf16Bits(_mm512_sub_ps(r1, Bf16Value(mid)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + h), _mm512_cvtepi32_epi16(hi));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + geo.a_tile() + h), _mm512_cvtepi32_epi16(mid));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * geo.a_tile() + h), _mm512_cvtepi32_epi16(lo));
      }
    }
  }
  return bad == 0;
}

// 16 codes (one byte each) as int32 lanes.
WEBNN_AMX_TARGET inline __m512i Widen(const uint8_t* p, bool is_signed) {
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return is_signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
}

// One B tile row: per column, bf16(even - zp) in the low half, bf16(odd - zp) in the high.
WEBNN_AMX_TARGET inline void StorePairs(__m512i even, __m512i odd, __m512i zp, uint16_t* out) {
  const __m512 e = _mm512_cvtepi32_ps(_mm512_sub_epi32(even, zp));
  const __m512 o = _mm512_cvtepi32_ps(_mm512_sub_epi32(odd, zp));
  // Integers up to 255 in magnitude: their float32 bits end in 16 zeros, so
  // the top half is the exact bfloat16.
  const __m512i pair = _mm512_or_si512(_mm512_and_si512(_mm512_castps_si512(o), _mm512_set1_epi32(~0xFFFF)),
                                       _mm512_srli_epi32(_mm512_castps_si512(e), 16));
  _mm512_storeu_si512(out, pair);
}

// B tiles of group g, K rows [k0, k0 + steps * ks): per step, ks / 2 rows of 16 pairs.
WEBNN_AMX_TARGET void MakeBTiles(const PackedWeights& p, const Geometry& geo, size_t g, size_t k0, size_t steps,
                                 uint16_t* dst) {
  const bool is_signed = p.codes == Codes::kInt8;
  size_t b = k0 / p.block, r0 = k0 - b * p.block;  // advanced per step, without a division
  for (size_t s = 0; s < steps; ++s, r0 += geo.ks) {
    if (r0 == p.block) r0 = 0, ++b;
    const uint8_t* z = p.zero_points_at(g, b);
    const __m512i zp = z ? Widen(z, is_signed) : _mm512_set1_epi32(p.zero_point);
    const uint8_t* codes = p.codes_at(g, b);
    uint16_t* out = dst + s * geo.b_tile();
    for (size_t i = 0; i < geo.ks / 2; ++i) {
      if (p.codes == Codes::kNibbles) {
        const __m512i v = Widen(codes + (r0 / 2 + i) * kGroup, false);  // rows r0 + 2i (low), r0 + 2i + 1 (high)
        StorePairs(_mm512_and_si512(v, _mm512_set1_epi32(0x0F)), _mm512_srli_epi32(v, 4), zp, out + i * 32);
      } else {
        StorePairs(Widen(codes + (r0 + 2 * i) * kGroup, is_signed), Widen(codes + (r0 + 2 * i + 1) * kGroup, is_signed),
                   zp, out + i * 32);
      }
    }
  }
}

// C[0:rows, 0:cols] of a panel (+)= sum over `segments` segments i of
// scale_i x sums_i (sums: [segments][32][32], rows 128 bytes apart; the scales
// of segment i's block: scales[i][0] for columns 0-15, scales[i][1] for
// 16-31). The panel's first segments add the bias instead of C, its last
// clamp.
WEBNN_AMX_TARGET void AddSegments(const float* sums, size_t segments, const float* const (*scales)[2], float* c,
                                  size_t ldc, size_t rows, size_t cols, bool first, bool last, const float* bias,
                                  const GemmEpilogue& e) {
  const __m512 lo = _mm512_set1_ps(e.min), hi = _mm512_set1_ps(e.max);
  const bool clamp = last && (e.min != -std::numeric_limits<float>::infinity() ||
                              e.max != std::numeric_limits<float>::infinity());
  constexpr size_t kSegmentFloats = kRowPair * kPanel;
  for (size_t half = 0; half < 2; ++half) {
    if (cols <= half * 16) break;
    const size_t n = std::min<size_t>(16, cols - half * 16);
    const __mmask16 mask = static_cast<__mmask16>((1u << n) - 1);
    const __m512 b = first && bias ? _mm512_maskz_loadu_ps(mask, bias + half * 16) : _mm512_setzero_ps();
    // Four rows at a time: four independent FMA chains over the segments.
    for (size_t r = 0; r < rows; r += 4) {
      const size_t count = std::min<size_t>(4, rows - r);
      __m512 acc[4];
      for (size_t j = 0; j < 4; ++j)
        acc[j] = first || j >= count ? b : _mm512_maskz_loadu_ps(mask, c + (r + j) * ldc + half * 16);
      const float* row_sums = sums + r * 32 + half * 16;
      for (size_t i = 0; i < segments; ++i) {
        const __m512 scale = _mm512_loadu_ps(scales[i][half]);
        const float* t = row_sums + i * kSegmentFloats;
        acc[0] = _mm512_fmadd_ps(_mm512_load_ps(t), scale, acc[0]);
        acc[1] = _mm512_fmadd_ps(_mm512_load_ps(t + 32), scale, acc[1]);
        acc[2] = _mm512_fmadd_ps(_mm512_load_ps(t + 64), scale, acc[2]);
        acc[3] = _mm512_fmadd_ps(_mm512_load_ps(t + 96), scale, acc[3]);
      }
      for (size_t j = 0; j < count; ++j) {
        __m512 v = acc[j];
        if (clamp) {  // NaN stays NaN, as the GEMM core's clamp
          const __m512 clamped = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
          v = _mm512_mask_mov_ps(clamped, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
        }
        _mm512_mask_storeu_ps(c + (r + j) * ldc + half * 16, mask, v);
      }
    }
  }
}

WEBNN_AMX_TARGET void Gemm(const PackedWeights& p, const uint16_t* packed_a, size_t m, size_t n0, size_t cols,
                           float* c, size_t ldc, const GemmEpilogue& e) {
  const Geometry geo(p);
  const size_t steps_total = p.k / geo.ks, seg_steps = geo.seg / geo.ks;
  const memory::Scratch<uint16_t> b_tiles(kPanelsPerPass * 2 * (geo.kc / geo.ks) * geo.b_tile(),
                                          "quantizedMatmul (AMX): B tiles");
  const memory::Scratch<float> sums(kSegmentsPerAdd * kRowPair * kPanel, "quantizedMatmul (AMX): segment sums");
  TileConfig config;
  for (int t = 0; t < 4; ++t) config.rows[t] = 16, config.colsb[t] = 64;                                 // C
  for (int t = 4; t < 6; ++t) config.rows[t] = 16, config.colsb[t] = static_cast<uint16_t>(2 * geo.ks);  // A
  for (int t = 6; t < 8; ++t) config.rows[t] = static_cast<uint8_t>(geo.ks / 2), config.colsb[t] = 64;   // B
  _tile_loadconfig(&config);
  static const float kNoScales[kGroup] = {};
  const size_t a_step = 3 * geo.a_tile();  // one K step of a row tile: its three parts
  for (size_t j0 = 0; j0 < cols; j0 += kPanelsPerPass * kPanel) {
    const size_t panels = std::min(kPanelsPerPass, CeilDiv(cols - j0, kPanel));
    for (size_t k0 = 0; k0 < p.k; k0 += geo.kc) {
      const size_t steps = std::min(geo.kc, p.k - k0) / geo.ks, segments = steps / seg_steps;
      // B tile (panel, column tile ct, step s) at b_tiles + ((panel * 2 + ct) * steps + s) * b_tile.
      for (size_t q = 0; q < panels * 2; ++q) {
        const size_t g = (n0 + j0) / kGroup + q;
        uint16_t* dst = b_tiles.data() + q * steps * geo.b_tile();
        if (g < p.groups) MakeBTiles(p, geo, g, k0, steps, dst);
        else std::memset(dst, 0, steps * geo.b_tile() * sizeof(uint16_t));
      }
      WEBNN_AMX_BARRIER();
      // Each segment's weight block (no 64-bit divisions in the loops below).
      size_t block_of[kChunk / 16];
      for (size_t i = 0; i < segments; ++i) block_of[i] = (k0 + i * geo.seg) / p.block;
      const size_t step0 = k0 / geo.ks;
      for (size_t r0 = 0; r0 < m; r0 += kRowPair) {
        const uint16_t* a0 = packed_a + (r0 / 16) * steps_total * a_step;
        const uint16_t* a1 = a0 + steps_total * a_step;
        for (size_t panel = 0; panel < panels; ++panel) {
          const size_t col = j0 + panel * kPanel, g0 = (n0 + col) / kGroup;
          const uint16_t* b0 = b_tiles.data() + panel * 2 * steps * geo.b_tile();
          const uint16_t* b1 = b0 + steps * geo.b_tile();
          const float* scales[kChunk / 16][2];
          for (size_t i = 0; i < segments; ++i) {
            const size_t b = block_of[i];
            float* t = sums.data() + (i % kSegmentsPerAdd) * kRowPair * kPanel;
            scales[i][0] = p.scales_at(g0, b);
            scales[i][1] = g0 + 1 < p.groups ? p.scales_at(g0 + 1, b) : kNoScales;
            _tile_zero(0);
            _tile_zero(1);
            _tile_zero(2);
            _tile_zero(3);
            for (size_t s = i * seg_steps; s < (i + 1) * seg_steps; ++s) {
              _tile_loadd(6, b0 + s * geo.b_tile(), 64);
              _tile_loadd(7, b1 + s * geo.b_tile(), 64);
              const size_t at = (step0 + s) * a_step;
              for (size_t x = 0; x < 3; ++x) {
                _tile_loadd(4, a0 + at + x * geo.a_tile(), 2 * geo.ks);
                _tile_loadd(5, a1 + at + x * geo.a_tile(), 2 * geo.ks);
                _tile_dpbf16ps(0, 4, 6);
                _tile_dpbf16ps(1, 4, 7);
                _tile_dpbf16ps(2, 5, 6);
                _tile_dpbf16ps(3, 5, 7);
              }
            }
            _tile_stored(0, t, 128);
            _tile_stored(1, t + 16, 128);
            _tile_stored(2, t + 16 * 32, 128);
            _tile_stored(3, t + 16 * 32 + 16, 128);
            if ((i + 1) % kSegmentsPerAdd == 0 || i + 1 == segments) {
              const size_t i0 = i / kSegmentsPerAdd * kSegmentsPerAdd;
              const bool first = k0 == 0 && i0 == 0, last = i + 1 == segments && k0 + steps * geo.ks == p.k;
              WEBNN_AMX_BARRIER();
              AddSegments(sums.data(), i + 1 - i0, scales + i0, c + r0 * ldc + col, ldc, std::min(kRowPair, m - r0),
                          std::min(kPanel, cols - col), first, last, e.bias ? e.bias + col : nullptr, e);
              WEBNN_AMX_BARRIER();
            }
          }
        }
      }
    }
  }
  _tile_release();
}
#endif  // WEBNN_AMX

}  // namespace

bool AmxAvailable() {
#if WEBNN_AMX
  // WEBNN_CPU_AMX=0 in the environment: as on a CPU without AMX (benchmarks
  // of the GEMM core on the same machine).
  static const bool available = [] {
    const char* env = std::getenv("WEBNN_CPU_AMX");
    return !(env && std::strcmp(env, "0") == 0) && DetectAmx();
  }();
  return available;
#else
  return false;
#endif
}

void SetAmxAllowed(bool allowed) { g_allowed.store(allowed, std::memory_order_relaxed); }

bool AmxFits(const PackedWeights& p) {
  return AmxAvailable() && p.factorable && !p.f16 && p.block % 16 == 0 && p.block > 0;
}

bool AmxTakes(const PackedWeights& p) { return g_allowed.load(std::memory_order_relaxed) && AmxFits(p); }

size_t AmxLhsElements(size_t m, size_t k) { return CeilDiv(m, kRowPair) * kRowPair * k * 3; }

size_t AmxWorkerBytes(const PackedWeights& p) {
  const Geometry geo(p);
  return memory::ScratchBytes(kPanelsPerPass * 2 * (geo.kc / geo.ks) * geo.b_tile() * sizeof(uint16_t)) +
         memory::ScratchBytes(kSegmentsPerAdd * kRowPair * kPanel * sizeof(float));
}

bool AmxPackLhs(const PackedWeights& p, const float* a, size_t m, uint16_t* dst, core::ParallelFor& parallel) {
#if WEBNN_AMX
  const Geometry geo(p);
  std::atomic<bool> ok{true};
  parallel.Run(CeilDiv(m, kRowPair) * 2, 1, [&](size_t t0, size_t t1) {
    for (size_t rt = t0; rt < t1; ++rt)
      if (!PackRowTile(geo, a, m, p.k, rt, dst)) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
#else
  (void)p, (void)a, (void)m, (void)dst, (void)parallel;
  return false;
#endif
}

void AmxGemm(const PackedWeights& p, const uint16_t* packed_a, size_t m, size_t n0, size_t cols, float* c,
             size_t ldc, const GemmEpilogue& epilogue) {
#if WEBNN_AMX
  Gemm(p, packed_a, m, n0, cols, c, ldc, epilogue);
#else
  (void)p, (void)packed_a, (void)m, (void)n0, (void)cols, (void)c, (void)ldc, (void)epilogue;
#endif
}

}  // namespace webnn::ops::cpu::qmm
