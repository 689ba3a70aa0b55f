// Reference kernel of cast, with the spec's conversion table:
//  float -> float: nearest (ties to even), out of range -> +-Inf;
//  int   -> float: nearest;
//  int   -> int:   the low N bits, two's complement (int8 -1 -> uint8 255);
//  float -> int:   truncate toward zero. Out of range is implementation-defined;
//                  here it saturates to the target's range and NaN gives 0.
// The value is loaded in the input's compute domain and Store() performs
// exactly these conversions with one rounding. Casting to the same type copies
// the bytes so NaN payloads survive.
#include <cstring>

#include "ops/cast.h"
#include "ops/reference/ref_util.h"

namespace webnn::ops::ref {

void RunCast(const KernelContext& ctx) {
  const TensorView& in = ctx.inputs[0];
  const TensorView& out = ctx.outputs[0];
  if (in.type == out.type) {
    if (in.bytes() > 0) std::memcpy(out.data, in.data, in.bytes());
    return;
  }
  const uint64_t n = out.elements();
  VisitDomain(in.type, [&]<typename T>() {
    for (uint64_t i = 0; i < n; ++i) Store<T>(out, i, Load<T>(in, i));
  });
}

}  // namespace webnn::ops::ref
