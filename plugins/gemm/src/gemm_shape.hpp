// GEMM problem shape (M, N, K, batch) from the perf model's parameters, and the shape patterns
// the GEMM analyzer's decision rules act on: misaligned or off-tile dimensions (pad), too few
// output tiles for a long K loop (split-K / stream-K), tall-skinny memory-bound products
// (batch or fuse).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::gemm {

struct GemmDims {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  std::int64_t batch = 1;
};

inline constexpr std::int64_t kVectorAlign = 8;    // elements per aligned vector load
inline constexpr std::int64_t kTileMultiple = 64;  // a common GEMM tile edge
inline constexpr std::int64_t kTileEdge = 128;     // output tile used to count tiles
inline constexpr std::int64_t kFewTiles = 64;      // fewer output tiles than this starve the GPU
inline constexpr std::int64_t kLongK = 4096;
inline constexpr std::int64_t kSkinnyEdge = 64;  // M, N or K at most this is skinny

// The perf_params cell ("{'M': 256, 'N': 512, 'K': 131072, 'B': 1, ...}"); nullopt when it does
// not hold positive integer M, N and K.
std::optional<GemmDims> dims_from_perf_params(std::string_view perf_params);

// {"M": m, "N": n, "K": k, "B": batch}, and back.
Json dims_json(const GemmDims& dims);
std::optional<GemmDims> dims_from_json(const Json& value);

enum class ShapePattern { TallSkinny, ShortK, Misaligned, OffTile, FewTiles, None };

struct PaddedDim {
  char name = 'M';
  std::int64_t from = 0;
  std::int64_t to = 0;  // next multiple of kTileMultiple
};

struct ShapeDiagnosis {
  ShapePattern pattern = ShapePattern::None;
  std::vector<PaddedDim> pad;     // Misaligned / OffTile: the dims to pad
  std::int64_t output_tiles = 0;  // batch * ceil(M/128) * ceil(N/128)
};

// Picks the pattern for one operation; memory_bound selects the tall-skinny rule.
// Padding is proposed only where it can deliver (docs/deviations.md, "GEMM actions"): a
// misaligned dimension only when it sets the vector alignment of the loads (N and K of a
// row-major PyTorch GEMM; M is the row count, often the token count, and does not), and an
// off-tile dimension only when the share of its last tile left empty explains at least half of
// the roofline gap (`efficiency_percent`; without it, at least kMinTileWaste).
ShapeDiagnosis diagnose(const GemmDims& dims, bool memory_bound,
                        std::optional<double> efficiency_percent = std::nullopt);
inline constexpr double kMinTileWaste = 0.05;

std::int64_t output_tiles(const GemmDims& dims);

}  // namespace loupe::gemm
