# cmake -DLOUPE=... -DPLUGINS=... -DTRACE=... -DOUT=... -P check.cmake
# Runs `loupe analyze --trace` with the Acme plugins and checks what they added: the vendor
# category's ops table (the two ops whose kernels are Acme's), its match counts in loupe_run.json,
# and both plugins' cards in findings.json.
file(REMOVE_RECURSE ${OUT})
execute_process(
  COMMAND ${LOUPE} analyze --trace ${TRACE} -o ${OUT} -q --plugin-dir ${PLUGINS} --strict
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "loupe analyze exited ${rc}: ${err}")
endif()

# Lines counted by their newlines (cells hold ';', which CMake lists would split on).
file(READ ${OUT}/category_data/acme_kernels_ops.csv csv)
string(REGEX MATCHALL "\n" newlines "${csv}")
list(LENGTH newlines n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "acme_kernels_ops.csv: expected a header and 2 rows, got ${n} lines")
endif()

file(READ ${OUT}/loupe_run.json run)
string(JSON ops GET "${run}" vendor_categories 0 ops)
string(JSON kernels GET "${run}" vendor_categories 0 kernels)
string(JSON gpu_us GET "${run}" vendor_categories 0 gpu_time_us)
if(NOT ops EQUAL 2 OR NOT kernels EQUAL 2 OR NOT gpu_us EQUAL 500)
  message(FATAL_ERROR "vendor_categories: ops ${ops}, kernels ${kernels}, ${gpu_us} us "
                      "(expected 2, 2, 500)")
endif()

file(READ ${OUT}/findings.json findings)
foreach(plugin acme_gemm acme_kernels)
  string(FIND "${findings}" "\"plugin\": \"${plugin}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "findings.json has no card of ${plugin}")
  endif()
endforeach()
message(STATUS "acme plugins: 2 ops, 2 kernels, ${gpu_us} us in acme_kernels; both plugins' cards in findings.json")
