#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct CumulativeSumAttrs final : OpAttrs {
  uint32_t axis = 0;
  bool exclusive = false;
  bool reversed = false;
};

}  // namespace webnn::ops
