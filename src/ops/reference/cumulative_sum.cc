// Reference kernel of cumulativeSum.
//
// Each line along `axis` is scanned (from its end when reversed); the running
// sum is kept in the compute domain (float64 for floats, so every output is the
// exactly-accumulated prefix rounded once; wrapping 64-bit for integers) and
// stored before (exclusive) or after (inclusive) adding the current element.
#include "ops/cumulative_sum.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunCumulativeSum(const KernelContext& ctx) {
  const auto& attrs = AttrsAs<CumulativeSumAttrs>(ctx.attrs);
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  const std::vector<uint64_t> strides = Strides(input.shape);
  const uint32_t axis_size = input.shape[attrs.axis];
  const uint64_t axis_stride = strides[attrs.axis];
  // One scan per index of the other axes: iterate with the scanned axis pinned to 0.
  std::vector<uint32_t> line_starts = input.shape;
  line_starts[attrs.axis] = 1;

  VisitDomain(input.type, [&]<typename T>() {
    ForEachIndex(line_starts, [&](const std::vector<uint32_t>& idx) {
      const uint64_t base = Offset(idx, strides);
      T sum = 0;
      for (uint32_t step = 0; step < axis_size; ++step) {
        const uint32_t k = attrs.reversed ? axis_size - 1 - step : step;
        const uint64_t offset = base + k * axis_stride;
        const T x = Load<T>(input, offset);
        if (attrs.exclusive) {
          Store<T>(out, offset, sum);
          sum = WrapAdd(sum, x);
        } else {
          sum = WrapAdd(sum, x);
          Store<T>(out, offset, sum);
        }
      }
    });
  });
}

}  // namespace webnn::ops::ref
