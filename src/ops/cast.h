#pragma once
#include "ops/schema.h"
namespace webnn::ops {
struct CastAttrs final : OpAttrs {
  DataType dataType = DataType::kFloat32;  // target type
};
}  // namespace webnn::ops
