// Reference kernels of batchNormalization, instanceNormalization and
// layerNormalization:
//   output = scale * (input - mean) / sqrt(variance + epsilon) + bias
// batchNormalization takes mean and variance as operands; the other two compute
// them (mean, then the mean of squared deviations: two passes, no cancellation)
// over a set of axes for every index of the remaining axes. epsilon is first
// cast to the input's data type, as the spec's steps do; everything else is
// float64 with one rounding per output element.
#include <cmath>

#include "ops/normalization.h"
#include "ops/number_cast.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

double CastEpsilon(double epsilon, DataType type) { return CastMLNumber(MLNumber(epsilon), type).f; }

void BatchNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<BatchNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& mean = ctx.inputs[1];
  const TensorView& variance = ctx.inputs[2];
  const TensorView* scale = OptionalInput(ctx.inputs, 3);
  const TensorView* bias = OptionalInput(ctx.inputs, 4);
  const TensorView& out = ctx.outputs[0];
  const double epsilon = CastEpsilon(attrs.epsilon, input.type);
  uint64_t i = 0;
  ForEachIndex(input.shape, [&](const std::vector<uint32_t>& idx) {
    const uint32_t c = idx[attrs.axis];
    double v = (Load<double>(input, i) - Load<double>(mean, c)) / std::sqrt(Load<double>(variance, c) + epsilon);
    if (scale != nullptr) v *= Load<double>(*scale, c);
    if (bias != nullptr) v += Load<double>(*bias, c);
    Store<double>(out, i, v);
    ++i;
  });
}

// Normalizes `input` over `axes` (in the given order) for every index of the
// other axes. `param_offset(index)` gives the element of scale/bias that applies
// to a full input index.
template <typename ParamOffset>
void NormalizeOverAxes(const TensorView& input, const TensorView& out, const std::vector<uint32_t>& axes,
                       double epsilon, const TensorView* scale, const TensorView* bias, ParamOffset&& param_offset) {
  const uint32_t rank = input.rank();
  std::vector<bool> reduced(rank, false);
  for (uint32_t a : axes) reduced[a] = true;
  std::vector<uint32_t> kept_axes;
  std::vector<uint32_t> kept_shape;
  for (uint32_t a = 0; a < rank; ++a) {
    if (reduced[a]) continue;
    kept_axes.push_back(a);
    kept_shape.push_back(input.shape[a]);
  }
  std::vector<uint32_t> reduced_shape;
  for (uint32_t a : axes) reduced_shape.push_back(input.shape[a]);
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint64_t count = core::ElementCount(reduced_shape);

  std::vector<uint32_t> full(rank, 0);
  ForEachIndex(kept_shape, [&](const std::vector<uint32_t>& kept) {
    for (size_t i = 0; i < kept_axes.size(); ++i) full[kept_axes[i]] = kept[i];
    // Visits every element of this group: f(full index, linear offset).
    auto for_each_in_group = [&](auto&& f) {
      ForEachIndex(reduced_shape, [&](const std::vector<uint32_t>& r) {
        for (size_t i = 0; i < axes.size(); ++i) full[axes[i]] = r[i];
        f(static_cast<const std::vector<uint32_t>&>(full), Offset(full, strides));
      });
    };
    double sum = 0;
    for_each_in_group([&](const std::vector<uint32_t>&, uint64_t off) { sum += Load<double>(input, off); });
    const double mean = sum / static_cast<double>(count);
    double squares = 0;
    for_each_in_group([&](const std::vector<uint32_t>&, uint64_t off) {
      const double d = Load<double>(input, off) - mean;
      squares += d * d;
    });
    const double stddev = std::sqrt(squares / static_cast<double>(count) + epsilon);
    for_each_in_group([&](const std::vector<uint32_t>& idx, uint64_t off) {
      double v = (Load<double>(input, off) - mean) / stddev;
      if (scale != nullptr || bias != nullptr) {
        const uint64_t p = param_offset(idx);
        if (scale != nullptr) v *= Load<double>(*scale, p);
        if (bias != nullptr) v += Load<double>(*bias, p);
      }
      Store<double>(out, off, v);
    });
  });
}

void InstanceNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<InstanceNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const bool nchw = attrs.layout == MLInputOperandLayout::kNchw;
  const uint32_t channel_axis = nchw ? 1 : 3;
  const std::vector<uint32_t> spatial_axes = nchw ? std::vector<uint32_t>{2, 3} : std::vector<uint32_t>{1, 2};
  NormalizeOverAxes(input, ctx.outputs[0], spatial_axes, CastEpsilon(attrs.epsilon, input.type), OptionalInput(ctx.inputs, 1),
                    OptionalInput(ctx.inputs, 2), [&](const std::vector<uint32_t>& idx) { return uint64_t{idx[channel_axis]}; });
}

void LayerNormalization(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<LayerNormalizationAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const std::vector<uint32_t> axes = LayerNormalizationAxes(attrs, input.rank());
  // scale/bias dimension i is input axis axes[i].
  std::vector<uint32_t> param_shape;
  for (uint32_t a : axes) param_shape.push_back(input.shape[a]);
  const std::vector<uint64_t> param_strides = Strides(param_shape);
  NormalizeOverAxes(input, ctx.outputs[0], axes, CastEpsilon(attrs.epsilon, input.type), OptionalInput(ctx.inputs, 1),
                    OptionalInput(ctx.inputs, 2), [&](const std::vector<uint32_t>& idx) {
                      uint64_t off = 0;
                      for (size_t i = 0; i < axes.size(); ++i) off += idx[axes[i]] * param_strides[i];
                      return off;
                    });
}

}  // namespace

void RunNormalization(const KernelContext& ctx) {
  switch (ctx.op) {
    case OpKind::batchNormalization: return BatchNormalization(ctx);
    case OpKind::instanceNormalization: return InstanceNormalization(ctx);
    case OpKind::layerNormalization: return LayerNormalization(ctx);
    default: throw std::logic_error("RunNormalization: not a normalization op");
  }
}

}  // namespace webnn::ops::ref
