#!/bin/bash
# The shared library's dynamic symbols (it is built with -fvisibility=hidden):
# every C function webnn_c.h declares (its X-macros expanded by the
# preprocessor) is exported, and nothing of the engine's internal namespaces
# is, except inside the template arguments of weak std:: instantiations.
#   check_exports.sh LIBWEBNN_SO SOURCE_INCLUDE_DIR BUILD_INCLUDE_DIR
set -eu
so=$1 src_inc=$2 build_inc=$3
exported=$(nm -D --defined-only "$so")
declared=$(cc -std=c11 -E -P -I"$src_inc" -I"$build_inc" "$src_inc/webnn/webnn_c.h" |
  grep -oE 'wnn[A-Za-z0-9_]* *\(' | tr -d ' (' | sort -u)
missing=0
for f in $declared; do
  grep -q " T $f\$" <<<"$exported" || { echo "not exported: $f"; missing=1; }
done
internal=$(c++filt <<<"$exported" | sed 's/^[0-9a-f]* [A-Za-z] //' |
  grep -E '^(typeinfo for |typeinfo name for |vtable for )?webnn::(internal|ops|graph|io|memory|core|scheduler|capi)::' || true)
if [ -n "$internal" ]; then
  echo "internal symbols exported:"; head -20 <<<"$internal"; missing=1
fi
echo "$(wc -w <<<"$declared") C functions declared and exported; $(wc -l <<<"$exported") dynamic symbols in all"
exit $missing
