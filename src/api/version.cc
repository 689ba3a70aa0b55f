#include "webnn/version.h"
#include "webnn/webnn.h"

namespace webnn {
std::string ML::version() { return WEBNN_VERSION_STRING; }
}  // namespace webnn
