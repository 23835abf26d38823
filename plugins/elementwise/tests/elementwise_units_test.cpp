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

#include "host_transfer.hpp"

TEST_CASE("elementwise: host<->device copies are recognized by their kernels") {
  using loupe::elementwise::is_host_device_copy;
  using loupe::elementwise::only_host_device_copies;
  CHECK(is_host_device_copy("Memcpy HtoD (Pageable -> Device)"));
  CHECK(is_host_device_copy("Memcpy DtoH (Device -> Pinned)"));
  CHECK(is_host_device_copy("CopyHostToDevice"));
  CHECK(is_host_device_copy("CopyDeviceToHost"));
  CHECK_FALSE(is_host_device_copy("Memcpy DtoD (Device -> Device)"));
  CHECK_FALSE(is_host_device_copy("CopyDeviceToDevice"));
  CHECK_FALSE(is_host_device_copy(
      "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>"));

  CHECK(only_host_device_copies(
      "[{'name': 'Memcpy HtoD (Pageable -> Device)', 'stream': 7, 'mean_duration_us': 3461.36}]"));
  CHECK(
      only_host_device_copies("[{'name': 'CopyHostToDevice', 'stream': 0}, {'name': "
                              "\"Memcpy DtoH (Device -> Pageable)\", 'stream': 0}]"));
  // A copy op whose GPU work includes a device kernel stays an elementwise op.
  CHECK_FALSE(
      only_host_device_copies("[{'name': 'Memcpy HtoD (Pinned -> Device)', 'stream': 7}, "
                              "{'name': 'void at::native::vectorized_elementwise_kernel', "
                              "'stream': 7}]"));
  CHECK_FALSE(only_host_device_copies("[]"));
  CHECK_FALSE(only_host_device_copies(""));
  CHECK_FALSE(only_host_device_copies("[{'name': 'Memcpy HtoD (Pageable -> Device)"));  // cut
}
