// Reference kernel of pad. Values inside the input are byte copies; constant
// padding writes options.value cast to the input type by the spec's MLNumber
// cast (clamp and round half to even for integers).
#include <cstring>

#include "ops/number_cast.h"
#include "ops/pad.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {
namespace {

// Maps a coordinate c (relative to the input start, may be outside [0, dim)) to an
// input coordinate; -1 means "outside, use the constant".
int64_t SourceCoordinate(int64_t c, int64_t dim, MLPaddingMode mode) {
  if (c >= 0 && c < dim) return c;
  switch (mode) {
    case MLPaddingMode::kConstant: return -1;
    case MLPaddingMode::kEdge: return c < 0 ? 0 : dim - 1;
    case MLPaddingMode::kReflection: {
      // Validation keeps padding < dim, so one reflection suffices; the general
      // mirror (period 2 * (dim - 1)) keeps any input in range regardless.
      if (dim == 1) return 0;
      const int64_t period = 2 * (dim - 1);
      int64_t m = c % period;
      if (m < 0) m += period;
      return m < dim ? m : period - m;
    }
  }
  return -1;
}

}  // namespace

void RunPad(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<PadAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const uint64_t element_size = ByteLengthFor(input.type, 1);
  std::byte constant[sizeof(uint64_t)] = {};
  WriteCastValue(CastMLNumber(attrs.value, input.type), input.type, constant);

  const std::vector<uint64_t> strides = Strides(input.shape);
  std::vector<uint32_t> source(input.rank());
  uint64_t i = 0;
  ForEachIndex(out.shape, [&](const std::vector<uint32_t>& idx) {
    bool inside = true;
    for (uint32_t d = 0; d < input.rank(); ++d) {
      const int64_t c = SourceCoordinate(int64_t{idx[d]} - int64_t{attrs.beginningPadding[d]},
                                         int64_t{input.shape[d]}, attrs.mode);
      if (c < 0) {
        inside = false;
        break;
      }
      source[d] = static_cast<uint32_t>(c);
    }
    const std::byte* from = inside ? input.data + Offset(source, strides) * element_size : constant;
    std::memcpy(out.data + i++ * element_size, from, element_size);
  });
}

}  // namespace webnn::ops::ref
