#version 450
// argMin / argMax along one axis; -DA_<T> the input type, -DO_I32/-DO_I64 the
// index type. As the reference (src/ops/reference/arg_min_max.cc): ties give
// the lowest index and the first NaN beats every number. Partial results are
// (value, index) pairs whose combination breaks ties by index, so the result
// does not depend on how the row is split among threads.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) writeonly buffer O { O_T o[]; };

// P(0) rows (outer * inner), P(1) length (the axis), P(2) inner,
// P(3) 1: a workgroup per row, 0: a thread per row, P(4) 1: argMax, 0: argMin.
shared A_CT partial_value[256];
shared uint partial_index[256];

bool IsNan(A_CT v) {
#if defined(A_FLOAT)
  return isnan(v);
#else
  return false;
#endif
}

// Whether (vb, ib) beats (va, ia).
bool Better(bool is_max, A_CT va, uint ia, A_CT vb, uint ib) {
  const bool na = IsNan(va), nb = IsNan(vb);
  if (na || nb) return na == nb ? ib < ia : nb;
  if (vb == va) return ib < ia;
  return is_max ? vb > va : vb < va;
}

void main() {
  const uint rows = P(0), len = P(1), inner = P(2);
  const bool is_max = P(4) != 0u;
  const uint bx = BASE(1), bo = BASE(2);
  if (P(3) == 0u) {
    GRID_STRIDE_LOOP(r, rows) {
      const uint base = (r / inner) * len * inner + r % inner;
      A_CT best = A_CT(x[bx + base]);
      uint best_index = 0u;
      for (uint k = 1u; k < len && !IsNan(best); ++k) {
        const A_CT v = A_CT(x[bx + base + k * inner]);
        if (IsNan(v) || (is_max ? v > best : v < best)) {
          best = v;
          best_index = k;
        }
      }
      o[bo + r] = O_T(best_index);
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uint base = (r / inner) * len * inner + r % inner;
    // Every thread has an element: the workgroup mode needs len >= 64 and the
    // threads past the row start from its first element.
    uint best_index = lid < len ? lid : 0u;
    A_CT best = A_CT(x[bx + base + best_index * inner]);
    for (uint k = lid + 256u; k < len; k += 256u) {
      const A_CT v = A_CT(x[bx + base + k * inner]);
      if (Better(is_max, best, best_index, v, k)) {
        best = v;
        best_index = k;
      }
    }
    partial_value[lid] = best;
    partial_index[lid] = best_index;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
      if (lid < s && Better(is_max, partial_value[lid], partial_index[lid], partial_value[lid + s],
                            partial_index[lid + s])) {
        partial_value[lid] = partial_value[lid + s];
        partial_index[lid] = partial_index[lid + s];
      }
      barrier();
    }
    if (lid == 0u) o[bo + r] = O_T(partial_index[0]);
    barrier();
  }
}
