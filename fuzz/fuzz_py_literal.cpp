// The Python-literal reader for "Input Dims", "Input type" and friends.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loupe/compute/py_literal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)loupe::compute::parse_py_literal(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
