#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct GatherAttrs final : OpAttrs {  // gather, gatherElements (gatherND ignores axis)
  uint32_t axis = 0;
};

}  // namespace webnn::ops
