#!/usr/bin/env bash
# Prints the compiler flags of the lean instrumented builds (sanitize.sh,
# tsan.sh): the cpu kernels for one SIMD target, chosen at compile time
# (HWY_COMPILE_ONLY_STATIC), the best this CPU runs of:
#  - AVX3_DL (AVX-512 with VBMI, VBMI2, BITALG, VPOPCNTDQ, VAES, VPCLMULQDQ,
#    and Highway 1.0.3 also wants AVX-VNNI: Sapphire Rapids, Zen 5). The default build
#    never compiles it (Highway compiles it only as the baseline), and it is
#    the target of issue 13's wrong int8 results (clang 14, -march=native
#    -DHWY_COMPILE_ONLY_STATIC=1 on Zen 5): the instrumented pass is where it
#    gets tested;
#  - AVX2: Highway 1.0.3's static AVX2 target also needs AES and CLMUL
#    (without them x86-64-v3 gives SSSE3, which we disable, so EMU128);
#  - else the baseline.
set -euo pipefail
has() { for f in "$@"; do grep -qw "$f" /proc/cpuinfo || return 1; done; }
flags="-DHWY_COMPILE_ONLY_STATIC=1"
if has avx512f avx512bw avx512dq avx512vl avx512cd avx_vnni avx512_vnni avx512vbmi avx512_vbmi2 avx512_bitalg \
       avx512_vpopcntdq vaes vpclmulqdq gfni aes pclmulqdq; then
  flags="$flags -march=x86-64-v4 -mavxvnni -mavx512vnni -mavx512vbmi -mavx512vbmi2 -mavx512bitalg"
  flags="$flags -mavx512vpopcntdq -mvaes -mvpclmulqdq -mgfni -maes -mpclmul"
elif has avx2 fma f16c aes pclmulqdq; then
  flags="$flags -march=x86-64-v3 -maes -mpclmul"
fi
echo "$flags"
