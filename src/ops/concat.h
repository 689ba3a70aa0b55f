#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct ConcatAttrs final : OpAttrs {
  uint32_t axis = 0;
};

}  // namespace webnn::ops
