// Subcommands of the `webnn` command line.
#pragma once

#include <string>
#include <vector>

namespace webnn::cli {

using Args = std::vector<std::string>;

int Info(const Args& args);
int Conformance(const Args& args);
int Run(const Args& args);
int Mix(const Args& args);
int Oracle(const Args& args);

}  // namespace webnn::cli
