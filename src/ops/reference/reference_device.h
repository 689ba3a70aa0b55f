// The reference device: every operator, every data type the spec allows, in
// plain float64 code. The oracle other devices are checked against.
#pragma once

#include <memory>

#include "ops/host_device.h"

namespace webnn::ops {

std::shared_ptr<Device> CreateReferenceDevice();

}  // namespace webnn::ops
