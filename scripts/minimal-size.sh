#!/usr/bin/env bash
# Sizes for embedded users: builds the library alone (no tests, CLI or
# benchmarks) the full way and the minimal way (-Dfile_io=false, also without
# the gpu device, and also with the cpu kernels for one SIMD target, this
# CPU's best as scripts/static-simd-flags.sh picks it, instead of runtime
# dispatch over SSE4/AVX2/AVX-512), then prints the stripped size of
# libwebnn.a and of tests/consumer/consumer.c (relu through the C API) linked
# statically against each, after running the program.
# Build dirs: build-size-{full,min,min-nogpu,min-nogpu-1target}.
set -euo pipefail
cd "$(dirname "$0")/.."
printf "%-28s %14s %14s\n" "configuration" "libwebnn.a" "static app"
one_target=$(./scripts/static-simd-flags.sh)
for cfg in "full:" "min:-Dfile_io=false" "min-nogpu:-Dfile_io=false -Dvulkan=disabled" \
           "min-nogpu-1target:-Dfile_io=false -Dvulkan=disabled"; do
  name=${cfg%%:*} options=${cfg#*:}
  dir=build-size-$name
  cpp_args=()
  [ "$name" = min-nogpu-1target ] && cpp_args=("-Dcpp_args=$one_target")
  # shellcheck disable=SC2086
  [ -f "$dir/build.ninja" ] ||
    meson setup "$dir" --buildtype=release -Dtests=false $options "${cpp_args[@]}" >/dev/null
  ninja -C "$dir" libwebnn.a >/dev/null
  work=$(mktemp -d)
  cp "$dir/libwebnn.a" "$work/libwebnn.a"
  strip --strip-unneeded "$work/libwebnn.a"
  # The static link of a C program: the C++ runtime, Highway, threads, dl.
  cc -std=c11 -O2 -Iinclude -I"$dir/include" tests/consumer/consumer.c -o "$work/app" "$work/libwebnn.a" \
    -lhwy -lstdc++ -lm -pthread -ldl -Wl,--gc-sections
  strip "$work/app"
  "$work/app" >/dev/null
  printf "%-28s %14s %14s\n" "$name ($options${cpp_args:+ ${cpp_args[*]}})" "$(stat -c %s "$work/libwebnn.a")" "$(stat -c %s "$work/app")"
  rm -rf "$work"
done
