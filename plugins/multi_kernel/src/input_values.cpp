#include "input_values.hpp"

#include <cmath>

namespace loupe::multi_kernel {

std::string path_in(const std::string& where, std::string_view key) {
  const bool file_only = where.size() > 5 && where.compare(where.size() - 5, 5, ".json") == 0;
  return where + (file_only ? ": " : ".") + std::string(key);
}

std::string describe_type(const Json& value) {
  if (value.is_null()) return "null";
  if (value.is_bool()) return "a boolean";
  if (value.is_string()) return "a string";
  if (value.is_array()) return value.size() == 0 ? "an empty list" : "a list";
  if (value.is_object()) return "an object";
  if (value.is_double() && std::isnan(value.as_double())) return "NaN";
  if (value.is_double() && std::isinf(value.as_double())) return "infinite";
  return "a number";
}

namespace {

PyNumber checked_number(const Json& value, const std::string& path) {
  if (value.is_int()) return PyNumber::integer(value.as_int());
  if (value.is_double() && std::isfinite(value.as_double())) {
    return PyNumber::real(value.as_double());
  }
  throw InputProblem(path + " is " + describe_type(value) + ", expected a finite number");
}

}  // namespace

PyNumber number_member(const Json& object, std::string_view key, PyNumber fallback,
                       const std::string& where) {
  const Json* value = object.find(key);
  if (value == nullptr) return fallback;
  return checked_number(*value, path_in(where, key));
}

std::optional<PyNumber> optional_number_member(const Json& object, std::string_view key,
                                               const std::string& where) {
  const Json* value = object.find(key);
  if (value == nullptr || value->is_null()) return std::nullopt;
  return checked_number(*value, path_in(where, key));
}

Json object_member(const Json& object, std::string_view key, const std::string& where) {
  const Json* value = object.find(key);
  if (value == nullptr || value->is_null()) return Json::object();
  if (!value->is_object()) {
    throw InputProblem(path_in(where, key) + " is " + describe_type(*value) +
                       ", expected an object");
  }
  return *value;
}

Json object_member_strict(const Json& object, std::string_view key, const std::string& where) {
  const Json* value = object.find(key);
  if (value == nullptr) return Json::object();
  if (!value->is_object()) {
    throw InputProblem(path_in(where, key) + " is " + describe_type(*value) +
                       ", expected an object");
  }
  return *value;
}

DataSections split_data_document(const Json& data) {
  if (!data.is_object()) {
    throw InputProblem(std::string(kDataFile) + ": the document is " + describe_type(data) +
                       ", expected an object");
  }
  DataSections sections;
  sections.memcpy_summary = object_member(data, "memcpy_summary", kDataFile);
  sections.nccl_summary = object_member(data, "nccl_summary", kDataFile);
  sections.overlap = object_member(data, "overlap_analysis", kDataFile);
  return sections;
}

}  // namespace loupe::multi_kernel
