#!/usr/bin/env python3
"""Prints the op families of an op list (src/ops/op_list.inc or
internal_op_list.inc) as file names, one per line, in list order:
WEBNN_OP(conv2d, Conv2d) -> conv2d, WEBNN_OP(add, ElementwiseBinary) ->
elementwise_binary. meson.build reads this so that the build's families come
from THE op list instead of a second list kept by hand."""
import re
import sys

seen = []
for line in open(sys.argv[1]):
    m = re.match(r"\s*WEBNN_(?:INTERNAL_)?OP\(\s*\w+\s*,\s*(\w+)\s*\)", line)
    if not m:
        continue
    family = re.sub(r"(?<!^)([A-Z])", r"_\1", m.group(1)).lower()
    if family not in seen:
        seen.append(family)
print("\n".join(seen))
