#include <catch2/catch.hpp>

#include "elementwise_prose.hpp"

using loupe::elementwise::classify_elementwise;

TEST_CASE("elementwise: member classes of the analyzer prompt") {
  CHECK(classify_elementwise("aten::add_") == "Baseline");
  CHECK(classify_elementwise("aten::mul") == "Baseline");
  CHECK(classify_elementwise("aten::copy_") == "Baseline");
  CHECK(classify_elementwise("aten::div") == "Arithmetic");
  CHECK(classify_elementwise("aten::gelu") == "Activation");
  CHECK(classify_elementwise("aten::silu_backward") == "Activation");
  CHECK(classify_elementwise("aten::_to_copy") == "Cast / Convert");
  CHECK(classify_elementwise("aten::rsqrt") == "Math");
  CHECK(classify_elementwise("aten::masked_fill_") == "Comparison / Mask");
  CHECK(classify_elementwise("aten::addcmul") == "Other");
}
