#!/usr/bin/env bash
# Prints the compiler flags of the lean instrumented builds (sanitize.sh,
# tsan.sh): the cpu kernels for one SIMD target, chosen at compile time
# (HWY_COMPILE_ONLY_STATIC). AVX2 where the CPU has it: Highway 1.0.3's static
# AVX2 target also needs AES and CLMUL (without them x86-64-v3 gives SSSE3,
# which we disable, so EMU128); else the baseline.
set -euo pipefail
flags="-DHWY_COMPILE_ONLY_STATIC=1"
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo &&
   grep -qw aes /proc/cpuinfo && grep -qw pclmulqdq /proc/cpuinfo; then
  flags="$flags -march=x86-64-v3 -maes -mpclmul"
fi
echo "$flags"
