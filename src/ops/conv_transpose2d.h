// convTranspose2d attributes and output geometry (shared by Infer and every kernel).
#pragma once

#include <optional>
#include <vector>

#include "ops/activation.h"
#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct ConvTranspose2dAttrs final : OpAttrs {
  std::vector<uint32_t> padding = {0, 0, 0, 0};
  std::vector<uint32_t> strides = {1, 1};
  std::vector<uint32_t> dilations = {1, 1};
  std::vector<uint32_t> outputPadding = {0, 0};
  std::optional<std::vector<uint32_t>> outputSizes;
  uint32_t groups = 1;
  MLInputOperandLayout inputLayout = MLInputOperandLayout::kNchw;
  MLConvTranspose2dFilterOperandLayout filterLayout = MLConvTranspose2dFilterOperandLayout::kIohw;
  std::optional<FusedActivation> activation;  // set by the fusion pass
};

struct ConvTranspose2dGeometry {
  uint32_t batch, in_channels, in_h, in_w;
  uint32_t out_channels, out_h, out_w;  // out_channels = filter output channels per group * groups
  uint32_t kernel_h, kernel_w;
  uint32_t groups;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  uint32_t pad_top, pad_bottom, pad_left, pad_right;
};
// Assumes the shapes passed Infer.
ConvTranspose2dGeometry ComputeConvTranspose2dGeometry(const ConvTranspose2dAttrs& attrs,
                                                       const std::vector<uint32_t>& input_shape,
                                                       const std::vector<uint32_t>& filter_shape);

}  // namespace webnn::ops
