// fusedElementwise (internal op, src/ops/internal_op_list.inc): a chain of
// float32 element-wise ops that the FuseElementwise graph pass
// (src/graph/fuse_elementwise.h) collapsed into one node, so that a device can
// run it in one pass over memory.
//
// Operands: inputs[0] is the chain's starting value; every binary step reads
// one more of the inputs. All are float32 and broadcast (numpy rules) to the
// output shape; the program runs on the running value at the output shape,
// which gives the same elements as the unfused chain (element-wise ops commute
// with broadcasting).
#pragma once

#include <array>
#include <vector>

#include "ops/activation.h"
#include "ops/schema.h"

namespace webnn::ops {

struct FusedElementwiseStep {
  // The running value of a binary step is the operand itself (mul(x, x)).
  static constexpr int kRunningValue = -1;

  // An ElementwiseUnary op (not identity), an Activation op, or an
  // ElementwiseBinary op.
  OpKind op = OpKind::relu;
  // Binary ops: the node input holding the other operand, or kRunningValue.
  int operand = kRunningValue;
  // Binary ops: the running value is the second operand (op(other, x)).
  bool running_is_b = false;
  // Activation ops: their options.
  ActivationAttrs activation;
};

struct FusedElementwiseAttrs final : OpAttrs {
  std::vector<FusedElementwiseStep> steps;  // applied in order to inputs[0]
  // Per input, or empty for none: whole factors {along axis rank - 2, along
  // axis rank - 1} by which it is upsampled, nearest-neighbour, before it
  // broadcasts (element [.., y, x] reads [.., y / fy, x / fx]); {1, 1} for
  // an input read as it is. An upsampled input has the output's rank, and
  // upsampled, the output's shape (FuseElementwise: a resample2d's input
  // replacing its output). Never inputs[0].
  std::vector<std::array<uint32_t, 2>> upsample;
  bool upsampled(size_t input) const {
    return input < upsample.size() && (upsample[input][0] != 1 || upsample[input][1] != 1);
  }
};

// True for the ops a chain may contain: those a step may be, and identity
// (which adds no step).
bool IsFusableElementwise(OpKind op);
bool IsElementwiseBinary(OpKind op);

// "exp > add(#1) > relu": the program, for debugging and test messages.
std::string FusedElementwiseToString(const FusedElementwiseAttrs& attrs);

}  // namespace webnn::ops
