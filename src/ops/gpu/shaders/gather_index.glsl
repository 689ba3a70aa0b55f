// The index operand of gather and scatter, bound as 32-bit words whatever its
// type (int32, uint32 or int64: INDEX_KIND below), so that one variant per
// element size serves every index type. Declare the binding as
//   layout(std430, binding = INDEX_BINDING) readonly buffer Idx { uint idx[]; };
// before including this file.
const uint kIndexI32 = 0, kIndexU32 = 1, kIndexI64 = 2;

// Index k read as the reference does (src/ops/reference/gather.cc): a negative
// index wraps once by adding dim, then clamps to [0, dim - 1]. 64-bit indices
// are handled as (low, high) words, without shaderInt64.
uint ClampedIndex(uint k, uint dim, uint kind) {
  uint lo, hi;
  if (kind == kIndexU32) return min(idx[BASE(INDEX_BINDING) + k], dim - 1u);
  if (kind == kIndexI32) {
    lo = idx[BASE(INDEX_BINDING) + k];
    hi = int(lo) < 0 ? 0xffffffffu : 0u;
  } else {
    const uint w = 2u * (BASE(INDEX_BINDING) + k);  // BASE counts 8-byte elements
    lo = idx[w];
    hi = idx[w + 1u];
  }
  if (int(hi) < 0) {
    if (hi != 0xffffffffu || lo == 0u) return 0u;  // at most -2^32: below -dim
    const uint magnitude = 0u - lo;
    return magnitude >= dim ? 0u : dim - magnitude;
  }
  return hi != 0u ? dim - 1u : min(lo, dim - 1u);
}
