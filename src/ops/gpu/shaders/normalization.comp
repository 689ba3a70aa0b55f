#version 450
// instanceNormalization and layerNormalization, float32/float16 (-DA_<T>)
// computed in float32. For every row (an index of the kept axes): the window's
// mean, then the mean of squared deviations (two passes, as the reference, so
// no cancellation), then (x - mean) / sqrt(variance + epsilon) * scale + bias.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer X { A_T x[]; };
layout(std430, binding = 2) readonly buffer Scale { A_T scale[]; };
layout(std430, binding = 3) readonly buffer Bias { A_T bias[]; };
layout(std430, binding = 4) writeonly buffer O { A_T o[]; };

// P(0) rows, P(1) count (elements per window), P(2) 1: a workgroup per row,
// 0: a thread per row, P(3) bit 0: scale given, bit 1: bias given,
// P(4) epsilon (float bits),
// P(5) kept loops, P(6..13) sizes, P(14..21) input strides, P(22..29) scale strides,
// P(30) window loops, P(31..38) sizes, P(39..46) input strides, P(47..54) scale strides.
shared float partial[256];

// (input offset, scale/bias offset) of element i of the loops at word w.
uvec2 Offsets(uint w, uint i) {
  const uint loops = P(w);
  if (loops == 1u) return uvec2(i * P(w + 9), i * P(w + 17));
  uvec2 off = uvec2(0u);
  for (int d = int(loops) - 1; d >= 0; --d) {
    const uint n = P(w + 1 + d);
    const uint c = i % n;
    off += c * uvec2(P(w + 9 + d), P(w + 17 + d));
    i /= n;
  }
  return off;
}

float Load(uint i) { return float(x[BASE(1) + i]); }

float WorkgroupSum(float v) {
  const uint lid = gl_LocalInvocationID.x;
  partial[lid] = v;
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier();
  }
  const float r = partial[0];
  barrier();
  return r;
}

void Normalize(uint start, uint step, uvec2 base, float mean, float stddev) {
  const uint count = P(1), flags = P(3);
  for (uint k = start; k < count; k += step) {
    const uvec2 off = base + Offsets(30u, k);
    float v = (Load(off.x) - mean) / stddev;
    if ((flags & 1u) != 0u) v *= float(scale[BASE(2) + off.y]);
    if ((flags & 2u) != 0u) v += float(bias[BASE(3) + off.y]);
    o[BASE(4) + off.x] = A_T(v);
  }
}

void main() {
  const uint rows = P(0), count = P(1);
  const float epsilon = PF(4);
  if (P(2) == 0u) {
    GRID_STRIDE_LOOP(r, rows) {
      const uvec2 base = Offsets(5u, r);
      float sum = 0.0;
      for (uint k = 0u; k < count; ++k) sum += Load(base.x + Offsets(30u, k).x);
      const float mean = sum / float(count);
      float squares = 0.0;
      for (uint k = 0u; k < count; ++k) {
        const float d = Load(base.x + Offsets(30u, k).x) - mean;
        squares += d * d;
      }
      Normalize(0u, 1u, base, mean, sqrt(squares / float(count) + epsilon));
    }
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
    const uvec2 base = Offsets(5u, r);
    float sum = 0.0;
    for (uint k = lid; k < count; k += 256u) sum += Load(base.x + Offsets(30u, k).x);
    const float mean = WorkgroupSum(sum) / float(count);
    float squares = 0.0;
    for (uint k = lid; k < count; k += 256u) {
      const float d = Load(base.x + Offsets(30u, k).x) - mean;
      squares += d * d;
    }
    Normalize(lid, 256u, base, mean, sqrt(WorkgroupSum(squares) / float(count) + epsilon));
  }
}
