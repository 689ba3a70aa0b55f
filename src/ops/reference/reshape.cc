// Reference kernel of reshape: the row-major bytes are unchanged.
#include <cstring>

#include "ops/kernel.h"

namespace webnn::ops::ref {

void RunReshape(const KernelContext& ctx) {
  const TensorView& input = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  // memmove: a device may run reshape in place.
  if (out.data != input.data) std::memmove(out.data, input.data, input.bytes());
}

}  // namespace webnn::ops::ref
