#include <catch2/catch.hpp>

#include "reduce_prose.hpp"

using loupe::reduce::classify_reduce;

TEST_CASE("reduce: member classes of the analyzer prompt and the softmax count rule") {
  CHECK(classify_reduce("aten::_softmax") == "Softmax");
  CHECK(classify_reduce("aten::_log_softmax_backward_data") == "Softmax");
  CHECK(classify_reduce("aten::sum") == "Sum");
  CHECK(classify_reduce("aten::mean") == "Mean");
  CHECK(classify_reduce("aten::avg_pool2d") == "Mean");
  CHECK(classify_reduce("aten::amax") == "Max");
  CHECK(classify_reduce("aten::min") == "Min");
  CHECK(classify_reduce("aten::all") == "Other");
  CHECK(loupe::reduce::is_softmax("aten::SoftMax"));
  CHECK_FALSE(loupe::reduce::is_softmax("aten::sum"));
}
