// conv2d attributes and output geometry (shared by Infer and every kernel), and
// the sliding-window size arithmetic that conv2d, convTranspose2d and the
// pooling operations share.
#pragma once

#include <optional>

#include <cstdint>
#include <string_view>
#include <vector>

#include "ops/activation.h"
#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct Conv2dAttrs final : OpAttrs {
  std::vector<uint32_t> padding = {0, 0, 0, 0};  // [beginH, endH, beginW, endW]
  std::vector<uint32_t> strides = {1, 1};
  std::vector<uint32_t> dilations = {1, 1};
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::kNchw;
  MLConv2dFilterOperandLayout filterLayout = MLConv2dFilterOperandLayout::kOihw;
  std::optional<FusedActivation> activation;  // set by the fusion pass
};

// Sizes of a conv2d with layouts resolved, for concrete input/filter shapes.
struct Conv2dGeometry {
  uint32_t batch, in_channels, in_h, in_w;
  uint32_t out_channels, out_h, out_w;
  uint32_t kernel_h, kernel_w;
  uint32_t groups;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  uint32_t pad_top, pad_bottom, pad_left, pad_right;
};
// Assumes the shapes passed Infer.
Conv2dGeometry ComputeConv2dGeometry(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                     const std::vector<uint32_t>& filter_shape);

// The spec's "calculate conv output size" followed by floor (or ceil, for the
// pooling operations' "ceil" rounding), in exact integer arithmetic:
//   round(1 + (input - ((filter - 1) * dilation + 1) + pad_begin + pad_end) / stride)
// The result may be <= 0 (the window does not fit); callers validate it. With
// 32-bit arguments nothing overflows: an effective filter size past 2^62 (far
// larger than any input) returns INT64_MIN.
int64_t ConvOutputSize(uint64_t input, uint64_t filter, uint64_t pad_begin, uint64_t pad_end, uint64_t stride,
                       uint64_t dilation, bool round_up = false);

// Checks shared by conv2d, convTranspose2d and the pooling operations: padding
// has 4 entries, strides and dilations 2 nonzero entries each.
void CheckWindowOptions(const InferContext& ctx, const std::vector<uint32_t>& padding,
                        const std::vector<uint32_t>& strides, const std::vector<uint32_t>& dilations);

// An implementation limit, not a spec step: backends may materialize the
// zero-padded input (im2col, explicit pad), so it must fit in
// maxTensorByteLength like any tensor. WPT expects this TypeError for conv2d
// and pooling with huge padding.
void CheckPaddedInputSize(const InferContext& ctx, const OperandDesc& input, bool nhwc,
                          const std::vector<uint32_t>& padding);

}  // namespace webnn::ops
