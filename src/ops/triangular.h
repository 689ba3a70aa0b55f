#pragma once

#include "ops/schema.h"

namespace webnn::ops {

struct TriangularAttrs final : OpAttrs {
  bool upper = true;
  int32_t diagonal = 0;
};

}  // namespace webnn::ops
