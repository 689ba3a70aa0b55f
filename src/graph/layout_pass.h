// The internal-layout pass: convolutions given in nchw run in nhwc (the cpu
// device's fast layout), and the data stays in nhwc through the layout-agnostic
// ops between them, so a conv net pays one transpose at each input and output
// instead of two around every convolution.
#pragma once

#include <map>
#include <string>

#include "graph/graph.h"

namespace webnn::graph {

// One forward walk over the nodes reaching `outputs`, in topological order.
// Each operand is "native nhwc" when its producer now runs in nhwc: the new
// node computes transpose(x, [0, 2, 3, 1]) of the operand's logical (nchw)
// value into a new operand, and the logical operand is materialized by a
// transpose back ([0, 3, 1, 2]) only when something needs it: a node that is
// not converted, or a graph output (outputs keep their ids, shapes, layouts).
// Nodes converted:
//  - conv2d / convTranspose2d, nchw input, float32/float16, constant filter:
//    always (their nhwc kernels are the fast ones; the filter layout is
//    independent of the input layout, so the filter is not touched, and a
//    fused activation stays in the attributes), except a stem of at most 3
//    input channels whose input would need a transpose: it stays nchw and
//    its output is transposed instead;
//  - pooling, resample2d, batchNormalization (axis 1), instanceNormalization
//    (nchw), reductions keeping dimensions: when their input is native;
//  - element-wise ops (unary, binary, comparison, logical, activations, prelu,
//    cast, where) and concat with a rank-4 output: when an input is native.
//    Other inputs: native ones read their nhwc operand; host constants are
//    padded to rank 4 and permuted on the host (bias [1, C, 1, 1] becomes
//    [1, 1, 1, C]); one-element operands stay as they are; other rank-4
//    operands get a transpose; anything else leaves the node unconverted;
//  - transpose of a native operand: one transpose with the composed
//    permutation (none at all when it is the identity).
// A transpose to nhwc of an operand produced by a transpose composes the two
// (an nhwc graph input transposed to nchw for a conv costs nothing). Returns
// the number of nodes now running in nhwc.
int ConvertToNhwc(Graph& graph, const std::map<std::string, OperandId>& outputs);


}  // namespace webnn::graph
