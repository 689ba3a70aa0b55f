#include "commands.h"
#include <stdexcept>
namespace webnn::cli {
int Info(const Args&) { throw std::runtime_error("info: not implemented yet"); }
}  // namespace webnn::cli
