#include "scheduler/run.h"

#include <new>

#include "core/strings.h"
#include "memory/ledger.h"
#include "webnn/webnn.h"

namespace webnn::scheduler {

void Run(Executable& executable, const RunBinding& binding, core::ParallelFor& parallel,
         const std::shared_ptr<memory::Ledger>& ledger) {
  std::vector<ops::DeviceBuffer*> external(binding.external.size());
  for (size_t v = 0; v < external.size(); ++v) external[v] = binding.external[v].get();
  executable.Run(external, binding.shapes, parallel, binding.profile, binding.unrounded);
  ops::Device& device = executable.device();
  for (const auto& [from, to] : binding.copies) {
    const memory::Charge staging(ledger, memory::Place::kHost, memory::Category::kStaging, from->size(),
                                 "dispatch: copying an output");
    std::vector<std::byte> tmp;
    try {
      tmp.resize(from->size());
    } catch (const std::bad_alloc&) {
      throw QuotaExceededError(core::StrCat("dispatch: out of memory allocating ", from->size(),
                                            " bytes to copy an output"));
    }
    device.Download(*from, 0, tmp, parallel);
    device.Upload(*to, 0, tmp);
  }
}

}  // namespace webnn::scheduler
