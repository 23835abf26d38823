// Reading values out of the input documents with Python's dict.get semantics, and turning
// input that TraceLens would crash on (or silently mis-read) into a clear InputProblem.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"
#include "py_number.hpp"

namespace loupe::multi_kernel {

inline constexpr const char* kDataFile = "category_data/multi_kernel_data.json";
inline constexpr const char* kManifestFile = layout::kManifest;
// Where the overlap numbers are read from, for messages about them.
inline const std::string kOverlapPath = std::string(kDataFile) + ": overlap_analysis";

// Bad input: the message names the file and the problem.
class InputProblem : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Python: object.get(key, fallback) used as a number. Absent -> fallback. Null, booleans,
// strings, containers, NaN and infinities are input problems (`where` names file and path).
PyNumber number_member(const Json& object, std::string_view key, PyNumber fallback,
                       const std::string& where);
// Same, but absent or null -> nullopt (Python: `x.get(key)` compared with None).
std::optional<PyNumber> optional_number_member(const Json& object, std::string_view key,
                                               const std::string& where);
// Python: `object.get(key) or {}` used as a dict. Absent or null -> {}; any other non-object
// is an input problem.
Json object_member(const Json& object, std::string_view key, const std::string& where);
// object.get(key, {}) where a present non-object (null included) is an input problem.
Json object_member_strict(const Json& object, std::string_view key, const std::string& where);

// "category_data/multi_kernel_data.json: overlap_analysis.total_time_us"
std::string path_in(const std::string& where, std::string_view key);

// Describes a JSON value's type for messages ("a string", "null", ...).
std::string describe_type(const Json& value);

// The three sections of multi_kernel_data.json that the analysis reads.
struct DataSections {
  Json memcpy_summary = Json::object();
  Json nccl_summary = Json::object();
  Json overlap = Json::object();
};
DataSections split_data_document(const Json& data);

}  // namespace loupe::multi_kernel
