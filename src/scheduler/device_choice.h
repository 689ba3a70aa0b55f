// Which device runs a context: the one named, or for kAuto the one the
// options' power preference picks among those available.
#pragma once

#include <memory>

#include "ops/device.h"
#include "webnn/webnn.h"

namespace webnn::scheduler {

// NotSupportedError (naming why) when no device fits.
std::shared_ptr<ops::Device> ChooseDevice(const MLContextOptions& options);

}  // namespace webnn::scheduler
