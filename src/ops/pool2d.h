// averagePool2d, l2Pool2d, maxPool2d attributes and geometry (shared by Infer and every kernel).
#pragma once

#include <optional>
#include <vector>

#include "ops/schema.h"
#include "webnn/types.h"

namespace webnn::ops {

struct Pool2dAttrs final : OpAttrs {
  std::optional<std::vector<uint32_t>> windowDimensions;  // default: the input's spatial size
  std::vector<uint32_t> padding = {0, 0, 0, 0};
  std::vector<uint32_t> strides = {1, 1};
  std::vector<uint32_t> dilations = {1, 1};
  MLInputOperandLayout layout = MLInputOperandLayout::kNchw;
  MLRoundingType outputShapeRounding = MLRoundingType::kFloor;
  std::optional<std::vector<uint32_t>> outputSizes;
};

struct Pool2dGeometry {
  uint32_t batch, channels, in_h, in_w, out_h, out_w;
  uint32_t window_h, window_w;
  uint32_t stride_h, stride_w, dilation_h, dilation_w;
  uint32_t pad_top, pad_bottom, pad_left, pad_right;
};
// Output sizes are taken from `output_shape` (they depend on the rounding and
// outputSizes). Assumes the shapes passed Infer.
Pool2dGeometry ComputePool2dGeometry(const Pool2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                     const std::vector<uint32_t>& output_shape);

}  // namespace webnn::ops
