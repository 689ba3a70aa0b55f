// Graph passes run before a graph is lowered for a device that benefits from
// them (the reference device runs every graph exactly as built). Each pass
// keeps the graph's inputs, outputs and results; tests run graphs with and
// without passes against the reference device.
#pragma once

#include <map>
#include <string>

#include "graph/graph.h"

namespace webnn::graph {

struct PassStats {
  int fused_biases = 0;
  int fused_activations = 0;
  int nhwc_nodes = 0;  // nodes running in nhwc after ConvertToNhwc (graph/layout_pass.h)
  int fused_elementwise = 0;  // fusedElementwise nodes made by FuseElementwise
};

// add(y, c) where y comes from conv2d / convTranspose2d (c constant, varying
// only along channels), gemm (no C yet, beta 1) or matmul (c along N) and is
// read only by the add: c becomes the producer's bias, the add disappears.
int FuseBiases(Graph& graph, const std::map<std::string, OperandId>& outputs);

// conv2d / convTranspose2d / gemm / matmul followed by an activation (relu, clamp,
// sigmoid, ...) whose input is used only there: the activation moves into the
// producer's attributes (FusedActivation) and the activation node disappears
// from the program. float32/float16 only.
int FuseActivations(Graph& graph, const std::map<std::string, OperandId>& outputs);

// Chains of two or more float32 element-wise nodes (unary ops, activations,
// add/sub/mul/div/max/min/pow) whose intermediates are read only by the next
// node and are not graph outputs become one fusedElementwise node (one pass
// over memory on the cpu device). Runs last. Implemented in
// graph/fuse_elementwise.cc.
int FuseElementwise(Graph& graph, const std::map<std::string, OperandId>& outputs);

struct PassOptions {
  // ConvertToNhwc (graph/layout_pass.h), off by default: on the PP-OCR models
  // the cpu device's nhwc conv kernels are not yet faster than its nchw ones
  // (the direct nchw kernel wins when the output channels leave vector lanes
  // empty, e.g. 24 of 32 with AVX-512), so the pass cost 3-18%.
  bool nhwc_layout = false;
};

// Every pass, in order.
PassStats RunPasses(Graph& graph, const std::map<std::string, OperandId>& outputs, const PassOptions& options = {});

}  // namespace webnn::graph
