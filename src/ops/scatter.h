#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct ScatterAttrs final : OpAttrs {  // scatterElements (scatterND ignores axis)
  uint32_t axis = 0;
};

}  // namespace webnn::ops
