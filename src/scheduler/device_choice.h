// Which device runs a context: the one named, or for kAuto the one the
// options' power preference picks among those available.
#pragma once

#include <memory>
#include <string>

#include "ops/device.h"
#include "webnn/webnn.h"

namespace webnn::scheduler {

// NotSupportedError (naming why) when no device fits. `why` (when given)
// receives why this device: the rule that picked it and why each device
// before it in that rule's order was skipped.
std::shared_ptr<ops::Device> ChooseDevice(const MLContextOptions& options, std::string* why = nullptr);

}  // namespace webnn::scheduler
