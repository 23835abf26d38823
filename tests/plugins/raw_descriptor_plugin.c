/* Test plugins with broken descriptors, written against the raw C ABI.
 * LOUPE_RAW_VARIANT: 1 wrong ABI major, 2 entry returns NULL, 3 no entry symbol,
 * 4 needs a newer host, 5 declares no category. */
#include "loupe/abi.h"

static loupe_status analyze(const loupe_analyze_request* request) {
  (void)request;
  return LOUPE_OK;
}

static const char* const categories[] = {"test_raw"};

#if LOUPE_RAW_VARIANT == 3
LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* not_the_entry(const loupe_host_info* host);
LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* not_the_entry(const loupe_host_info* host) {
  (void)host;
  return 0;
}
#else
LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* loupe_plugin_entry(const loupe_host_info* host);
LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* loupe_plugin_entry(const loupe_host_info* host) {
  static loupe_plugin_descriptor d;
  (void)host;
  d.struct_size = sizeof(d);
  d.abi_major = LOUPE_ABI_MAJOR;
  d.abi_minor = LOUPE_ABI_MINOR;
  d.required_host_minor = 0;
  d.name = "test_raw";
  d.version = "0.0.1";
  d.description = "broken descriptor for loader tests";
  d.tier = LOUPE_TIER_SYSTEM;
  d.categories = categories;
  d.category_count = 1;
  d.reads = 0;
  d.read_count = 0;
  d.analyze = analyze;
#if LOUPE_RAW_VARIANT == 1
  d.abi_major = LOUPE_ABI_MAJOR + 98;
#elif LOUPE_RAW_VARIANT == 2
  return 0;
#elif LOUPE_RAW_VARIANT == 4
  d.required_host_minor = LOUPE_ABI_MINOR + 7;
#elif LOUPE_RAW_VARIANT == 5
  d.category_count = 0;
#endif
  return &d;
}
#endif
