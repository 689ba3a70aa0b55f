#version 450
// equal, notEqual, greater, greaterOrEqual, lesser, lesserOrEqual with numpy
// broadcasting, one variant per input type (-DA_<T>), uint8 0/1 output. Values
// compare exactly in their compute type (float16 widens to float32); IEEE
// comparisons give the reference's NaN behaviour (everything false but
// notEqual).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = 1) readonly buffer A { A_T a[]; };
layout(std430, binding = 2) readonly buffer B { A_T b[]; };
layout(std430, binding = 3) writeonly buffer O { uint8_t o[]; };

// P(0) n, P(1) op (unused: kOpCode), P(2) rank, P(3..10) output shape, P(11..18) a strides,
// P(19..26) b strides, P(27) 1 when a and b are both the output's shape.
const uint kEqual = 0, kNotEqual = 1, kGreater = 2, kGreaterOrEqual = 3, kLesser = 4;

bool Compare(uint op, A_CT x, A_CT y) {
  switch (op) {
    case kEqual: return x == y;
    case kNotEqual: return x != y;
    case kGreater: return x > y;
    case kGreaterOrEqual: return x >= y;
    case kLesser: return x < y;
    default: return x <= y;  // lesserOrEqual
  }
}

// The op code as a specialization constant: the pipeline compiler keeps the
// one case it selects (with the op as a parameter, llvmpipe ran every case's
// code for every element).
layout(constant_id = 0) const uint kOpCode = 0;

void main() {
  const uint n = P(0), op = kOpCode, rank = P(2);
  const uint ba = BASE(1), bb = BASE(2), bo = BASE(3);
  GRID_STRIDE_LOOP(i, n) {
    uint ia = i, ib = i;
    if (P(27) == 0u) {
      ia = 0u;
      ib = 0u;
      uint rest = i;
      for (int d = int(rank) - 1; d >= 0; --d) {
        const uint dim = P(3 + d);
        const uint c = rest % dim;
        rest /= dim;
        ia += c * P(11 + d);
        ib += c * P(19 + d);
      }
    }
    o[bo + i] = uint8_t(Compare(op, A_CT(a[ba + ia]), A_CT(b[bb + ib])) ? 1u : 0u);
  }
}
