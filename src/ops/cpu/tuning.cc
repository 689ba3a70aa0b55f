#include "ops/cpu/tuning.h"

#include <mutex>

namespace webnn::ops::cpu {
namespace {

std::mutex table_mutex;
std::shared_ptr<const TuningTable>& Table() {
  static std::shared_ptr<const TuningTable> table;
  return table;
}

}  // namespace

void SetTuningTable(std::shared_ptr<const TuningTable> table) {
  std::lock_guard<std::mutex> lock(table_mutex);
  Table() = std::move(table);
}

std::shared_ptr<const TuningTable> CurrentTuningTable() {
  std::lock_guard<std::mutex> lock(table_mutex);
  return Table();
}

}  // namespace webnn::ops::cpu
