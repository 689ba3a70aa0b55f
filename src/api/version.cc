#include "webnn/webnn.h"
#include "webnn_version.h"

namespace webnn {
std::string ML::version() { return WEBNN_VERSION; }
}  // namespace webnn
