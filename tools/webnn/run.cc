#include "commands.h"
#include <stdexcept>
namespace webnn::cli {
int Run(const Args&) { throw std::runtime_error("run: not implemented yet"); }
}  // namespace webnn::cli
