// Scoring one output of another implementation (the candidate) against the
// truth (`webnn oracle`, docs/ORACLE.md): a histogram of ULP distances in the
// output's data type (core/ulp.h), NaN and infinity mismatches, the largest
// absolute and relative errors against the float64 truth, and the verdict
// under a tolerance (io/wpt_tolerance.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "io/wpt_tolerance.h"
#include "webnn/types.h"

namespace webnn::io {

// Buckets of ULP distance: 0, 1, 2, 3-4, 5-8, 9-16, ..., 524289-1048576
// (2^19+1 to 2^20), then more than 2^20.
inline constexpr size_t kUlpBucketCount = 23;
size_t UlpBucket(uint64_t ulps);
std::string UlpBucketName(size_t bucket);  // "3-4", ">1048576"

struct OutputScore {
  uint64_t elements = 0;
  std::array<uint64_t, kUlpBucketCount> histogram{};  // elements with a distance
  uint64_t nan_mismatches = 0;  // NaN against a number, either way
  uint64_t inf_mismatches = 0;  // an infinity against anything but itself
  // Over the elements with a distance: the largest, the median and the 99th
  // percentile (nearest rank).
  uint64_t max_ulp = 0, median_ulp = 0, p99_ulp = 0;
  // |candidate - truth| and that over |truth| (truth != 0), against the
  // float64 truth, over the elements with a distance.
  double max_abs_error = 0, max_rel_error = 0;
  uint64_t failing = 0;      // elements outside the tolerance, mismatches included
  uint64_t worst_index = 0;  // the first mismatch, else the largest distance
  bool pass() const { return failing == 0; }
};

// `candidate` and `truth_rounded` hold packed elements of `type`;
// `truth_rounded` is the truth as the output type holds it (integers are
// compared on it, exactly); `truth` the float64 truth, one per element.
OutputScore ScoreOutput(std::span<const std::byte> candidate, std::span<const double> truth,
                        std::span<const std::byte> truth_rounded, MLOperandDataType type, const Tolerance& tolerance);

}  // namespace webnn::io
