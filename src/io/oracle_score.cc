#include "io/oracle_score.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "core/ulp.h"

namespace webnn::io {

size_t UlpBucket(uint64_t ulps) {
  if (ulps <= 2) return static_cast<size_t>(ulps);
  // Bucket b >= 3 holds (2^(b-2), 2^(b-1)].
  return std::min<size_t>(std::bit_width(ulps - 1) + 1, kUlpBucketCount - 1);
}

std::string UlpBucketName(size_t bucket) {
  if (bucket <= 2) return std::to_string(bucket);
  if (bucket == kUlpBucketCount - 1) return ">" + std::to_string(uint64_t{1} << (kUlpBucketCount - 3));
  return std::to_string((uint64_t{1} << (bucket - 2)) + 1) + "-" + std::to_string(uint64_t{1} << (bucket - 1));
}

namespace {

// Nearest-rank percentile of sorted-on-demand `v` (not empty).
uint64_t Percentile(std::vector<uint64_t>& v, double p) {
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
  const size_t k = std::clamp<size_t>(rank, 1, v.size()) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

OutputScore ScoreOutput(std::span<const std::byte> candidate, std::span<const double> truth,
                        std::span<const std::byte> truth_rounded, MLOperandDataType type, const Tolerance& tolerance) {
  OutputScore s;
  s.elements = truth.size();
  std::vector<uint64_t> distances;
  distances.reserve(truth.size());
  const bool is_float = IsFloatingPoint(type);
  bool mismatch_seen = false;
  for (uint64_t k = 0; k < s.elements; ++k) {
    const double c = core::ElementAsDouble(candidate, type, k);
    const double t = truth[k];
    uint64_t ulps;
    if (is_float) {
      const core::UlpDistance d = core::FloatUlpDistance(c, t, type);
      if (!d.matches()) {
        ++(d.kind == core::UlpDistance::Kind::kNanMismatch ? s.nan_mismatches : s.inf_mismatches);
        ++s.failing;
        if (!mismatch_seen) s.worst_index = k;
        mismatch_seen = true;
        continue;
      }
      ulps = d.ulps;
    } else {
      ulps = core::IntegerDistance(candidate, truth_rounded, type, k);
    }
    // Matching infinities and NaNs have no error.
    const double abs_error = std::isfinite(t) ? std::fabs(c - t) : 0.0;
    if (!std::isnan(abs_error)) {
      s.max_abs_error = std::max(s.max_abs_error, abs_error);
      if (t != 0 && std::isfinite(t)) s.max_rel_error = std::max(s.max_rel_error, abs_error / std::fabs(t));
    }
    ++s.histogram[UlpBucket(ulps)];
    distances.push_back(ulps);
    if (ulps > s.max_ulp) {
      s.max_ulp = ulps;
      if (!mismatch_seen) s.worst_index = k;
    }
    if (ulps > tolerance.ulp && !(is_float && abs_error <= tolerance.atol)) ++s.failing;
  }
  if (!distances.empty()) {
    s.median_ulp = Percentile(distances, 0.5);
    s.p99_ulp = Percentile(distances, 0.99);
  }
  return s;
}

}  // namespace webnn::io
