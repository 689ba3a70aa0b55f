// Graph passes run before a graph is lowered for a device that benefits from
// them (the reference device runs every graph exactly as built). Each pass
// keeps the graph's inputs, outputs and results; tests run graphs with and
// without passes against the reference device.
#pragma once

#include <map>
#include <string>

#include "graph/graph.h"
#include "ops/device.h"

namespace webnn::graph {

struct PassStats {
  int folded_affine = 0;
  int hard_swish = 0;
  int fused_biases = 0;
  int fused_activations = 0;
  int fused_affine = 0;
  int nhwc_nodes = 0;  // nodes running in nhwc after ConvertToNhwc (graph/layout_pass.h)
  int fused_elementwise = 0;  // fusedElementwise nodes made by FuseElementwise
  int quantized_matmuls = 0;  // quantizedMatmul nodes made by FuseQuantizedMatmul
  int swiglus = 0;            // gated quantizedMatmul nodes made by FuseSwiGlu
  int attentions = 0;         // attention nodes made by FuseAttention
  int normalizations = 0;     // fusedNormalization nodes made by FuseNormalization
  int skip_normalizations = 0;  // of them (or builtin layerNormalizations), those that took a residual add
  int rotary_embeddings = 0;  // rotaryEmbedding nodes made by FuseRotaryEmbedding
};

// mul / add by constants varying only along the output channels, and
// batchNormalization with constant parameters, after a float32 conv2d or
// convTranspose2d (groups 1) whose filter and bias are host constants: folded into new filter and bias
// constants (W * s, b * s + t), the consumer disappears.
int FoldAffineIntoConvs(Graph& graph, const std::map<std::string, OperandId>& outputs);

// hardSwish written out, as converters emit it: div(mul(a, clamp(add(a, 3),
// 0, 6)), 6) or mul(a, div(clamp(add(a, 3), 0, 6), 6)), with the
// intermediates read only inside the pattern: one hardSwish(a) node, which
// FuseActivations can then move into a conv.
int RecognizeHardSwish(Graph& graph, const std::map<std::string, OperandId>& outputs);

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
// over memory). A chain that would exceed `max_inputs` distinct inputs or
// `max_steps` steps (the device's limits) ends there, and the next node starts
// a new one. With `upsampled`, a binary step's other operand made by a
// nearest-neighbour resample2d by whole factors along the last two axes (as a
// feature pyramid's upsample + add) is read as the resample's input,
// upsampled by the kernel (FusedElementwiseAttrs::upsample): the upsampled
// tensor is never written. Runs last. Implemented in graph/fuse_elementwise.cc.
int FuseElementwise(Graph& graph, const std::map<std::string, OperandId>& outputs, uint32_t max_inputs = UINT32_MAX,
                    uint32_t max_steps = UINT32_MAX, bool upsampled = true);

// matmul(a, W) and gemm(a, W) where W = dequantizeLinear(weight, scale,
// zeroPoint) of constants (int4, uint4, int8, uint8; scale rank 2, blockwise
// broadcast) become quantizedMatmul(a, weight, scale, zeroPoint[, bias]): the
// weights stay quantized. gemm only without aTranspose, with alpha 1 and no C
// or beta 1 with C along N (a bias). The matmul's fused bias and activation
// carry over; W's other readers, if any, keep the dequantizeLinear.
// Implemented in graph/fuse_quantized_matmul.cc.
int FuseQuantizedMatmul(Graph& graph, const std::map<std::string, OperandId>& outputs,
                        bool int8_activations = false);

// SwiGLU of two quantized projections, mul(mul(g, sigmoid(g)), u) with g and
// u quantizedMatmuls of the same input (no bias, no activation, weights of
// one type and shape), becomes one gated quantizedMatmul computing both and
// writing only the product. Runs after FuseQuantizedMatmul, before
// FuseElementwise (which would take the muls and the sigmoid). SwiGLU over
// float matmuls stays as the element-wise chain FuseElementwise makes of it.
// Implemented in graph/fuse_quantized_matmul.cc.
int FuseSwiGlu(Graph& graph, const std::map<std::string, OperandId>& outputs);

// Scaled dot-product attention written out, matmul(softmax(add(mul(matmul(q,
// transpose(k)), c), mask)), v) with the scale and the mask optional and k, v
// possibly repeated per query-head group (GQA's reshape + expand + reshape),
// becomes one attention node reading the unrepeated key and value. Runs
// before the epilogue fusions (which would take the mask add into the
// matmul). Implemented in graph/fuse_attention.cc.
int FuseAttention(Graph& graph, const std::map<std::string, OperandId>& outputs);

// RMSNorm and layerNorm written out over the trailing axes (reduceMean of
// pow(x, 2) or mul(x, x), add epsilon, sqrt, div or mul by reciprocal, mul by
// a scale, add a bias; layerNorm subtracts the reduceMean first) become one
// fusedNormalization node; a builtin layerNormalization over the trailing axes
// stays as it is unless a residual add feeds it. An add(a, b) of two operands
// of the normalized shape feeding the norm (SkipLayerNorm) moves into the
// node, which then also writes the sum when anything else reads it.
// Implemented in graph/fuse_normalization.cc.
int FuseNormalization(Graph& graph, const std::map<std::string, OperandId>& outputs, PassStats& stats);

// RoPE written out (split x into halves along the last axis, x1 * cos - x2 *
// sin and x2 * cos + x1 * sin, concat; or x * cos + rotate_half(x) * sin with
// tables as wide as x) becomes one rotaryEmbedding node reading x, cos and
// sin. Implemented in graph/fuse_rotary_embedding.cc.
int FuseRotaryEmbedding(Graph& graph, const std::map<std::string, OperandId>& outputs);

struct PassOptions {
  // ConvertToNhwc (graph/layout_pass.h), off by default: on the PP-OCR models
  // the cpu device's nhwc conv kernels are not yet faster than its nchw ones
  // (the direct nchw kernel wins when the output channels leave vector lanes
  // empty, e.g. 24 of 32 with AVX-512), so the pass cost 3-18%.
  bool nhwc_layout = false;
  // MLContextOptions::int8MatmulActivations: quantizedMatmul nodes carry it
  // (QuantizedMatmulAttrs::int8_activations) for the device to honour.
  bool int8_matmul_activations = false;
  // The fused forms the target device implements (ops::Device::Fusions): the
  // epilogue fusions run only with `epilogues`, FuseElementwise within the
  // device's chain limits, FuseQuantizedMatmul and FuseSwiGlu with
  // `quantized_matmul`, FuseAttention with `attention`, FuseNormalization with
  // `normalization`, FuseRotaryEmbedding with `rotary_embedding`. The default
  // is every form, unbounded.
  ops::DeviceFusions fusions = ops::DeviceFusions::All();
};

// mul / add by a float32 scalar constant after a producer that has a fused
// activation: folded into the activation's post affine map (y * s + t).
int FuseAffineAfterActivations(Graph& graph, const std::map<std::string, OperandId>& outputs);

// Every pass, in order.
PassStats RunPasses(Graph& graph, const std::map<std::string, OperandId>& outputs, const PassOptions& options = {});

}  // namespace webnn::graph
