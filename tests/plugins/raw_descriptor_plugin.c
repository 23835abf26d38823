/* Test plugins with broken descriptors or hostile load-time code, written against the raw C ABI.
 * LOUPE_RAW_VARIANT: 1 wrong ABI major, 2 entry returns NULL, 3 no entry symbol,
 * 4 needs a newer host, 5 declares no category, 6 segfaults in the entry point, 7 segfaults in a
 * static constructor, 8 exports the entry symbol as data, 9 returns a garbage descriptor pointer,
 * 10 hangs in the entry point, 11 declares the category "../../ESCAPED", 12 writes a file from
 * its entry point (LOUPE_TEST_WRITE_PATH). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "loupe/abi.h"

#if LOUPE_RAW_VARIANT == 7
__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }
#endif

static loupe_status analyze(const loupe_analyze_request* request) {
  (void)request;
  return LOUPE_OK;
}

#if LOUPE_RAW_VARIANT == 11
static const char* const categories[] = {"../../ESCAPED"};
#else
static const char* const categories[] = {"test_raw"};
#endif

#if LOUPE_RAW_VARIANT == 8
LOUPE_PLUGIN_EXPORT const unsigned char loupe_plugin_entry[16] = {0xff, 0xff, 0xff, 0xff};
#elif LOUPE_RAW_VARIANT == 3
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
#if LOUPE_RAW_VARIANT == 6
  raise(SIGSEGV);
#elif LOUPE_RAW_VARIANT == 9
  return (const loupe_plugin_descriptor*)(uintptr_t)0x10;
#elif LOUPE_RAW_VARIANT == 10
  for (;;) pause();
#elif LOUPE_RAW_VARIANT == 12
  {
    const char* path = getenv("LOUPE_TEST_WRITE_PATH");
    FILE* f = path ? fopen(path, "w") : 0;
    if (f) {
      fputs("written by a plugin's entry point\n", f);
      fclose(f);
    }
  }
#endif
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
