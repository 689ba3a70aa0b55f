// Kernel tuning (issue 11): where the cpu device has several ways to run a
// layer (a conv2d's path and tile), its built-in model picks one from a
// fixed reckoning of each candidate's efficiency; `webnn tune` measures the
// candidates on this machine instead (qos/tune.h) and writes a tuning table.
// The device reads the process's table when it compiles a step: a layer the
// table names takes the table's choice, provided that choice is still one of
// the layer's candidates on the SIMD target running (a table measured
// elsewhere is refused when loaded, qos/profile_file.h); every other layer
// takes the model's. Without a table the model decides, as before.
//
// Candidates are named so that a table reads as what it chose, e.g.
// "igemm-nchw half 8px*16ch" (the implicit GEMM through nhwc, half-width
// tile of 8 pixels x 16 output channels) or "direct-nchw 4ch*64px".
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/conv2d.h"

namespace webnn::ops::cpu {

struct TuningTable {
  std::string machine;    // the cpu device's qos::MachineKey when measured
  std::string engine_version;
  unsigned threads = 0;   // the context's threads when measured
  std::string tuned;      // when ("2026-11-27 10:00 UTC")
  // Layer key (Conv2dTuningKey) -> candidate name.
  std::map<std::string, std::string> choices;
  // What `webnn tune` measured: layer key -> candidate -> median ms (for
  // people reading the table; the device reads `choices` only).
  std::map<std::string, std::map<std::string, double>> measured_ms;
};

// The process's table (null: none). Steps compiled after SetTuningTable take
// the new table; compiled ones keep what they packed.
void SetTuningTable(std::shared_ptr<const TuningTable> table);
std::shared_ptr<const TuningTable> CurrentTuningTable();

// conv2d. Shapes as the step's operands have them (input in its layout,
// filter in its layout); attrs as compiled (layouts after the passes).
std::string Conv2dTuningKey(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                            const std::vector<uint32_t>& filter_shape);
// The candidates on the target running, the model's choice first.
std::vector<std::string> Conv2dTuningCandidates(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                                                const std::vector<uint32_t>& filter_shape);
// What a step compiled now takes: the table's choice, else the model's.
std::string Conv2dTuningChoice(const Conv2dAttrs& attrs, const std::vector<uint32_t>& input_shape,
                               const std::vector<uint32_t>& filter_shape);

}  // namespace webnn::ops::cpu
