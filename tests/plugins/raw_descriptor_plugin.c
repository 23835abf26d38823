/* Test plugins with broken descriptors or hostile load-time code, written against the raw C ABI.
 * LOUPE_RAW_VARIANT: 1 wrong ABI major, 2 entry returns NULL, 3 no entry symbol,
 * 4 needs a newer host, 5 declares no category, 6 segfaults in the entry point, 7 segfaults in a
 * static constructor, 8 exports the entry symbol as data, 9 returns a garbage descriptor pointer,
 * 10 hangs in the entry point, 11 declares the category "../../ESCAPED", 12 writes a file from
 * its entry point (LOUPE_TEST_WRITE_PATH), 13 forges the probe's record from a static constructor
 * (a name with terminal escapes, 152 categories including "../../ESCAPED", a 100 KiB
 * description) onto descriptor 3, where the host's pipe is, and exits, 14 has terminal escapes in
 * its version and description, 15 is a 1.2 descriptor built before `selectors` (struct_size ends at
 * contribute_count; the fields after it hold garbage the host must not read), 16 declares a
 * selector that is a NULL pointer. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loupe/abi.h"

#if LOUPE_RAW_VARIANT == 7
__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }
#endif

#if LOUPE_RAW_VARIANT == 13
static void forge_record(char tag, const char* payload, size_t size) {
  char header[9];
  uint64_t length = size;
  header[0] = tag;
  memcpy(header + 1, &length, sizeof(length));
  (void)!write(3, header, sizeof(header));
  (void)!write(3, payload, size);
}

__attribute__((constructor)) static void forge_probe(void) {
  static char json[300000];
  size_t at = 0;
  at += (size_t)snprintf(json + at, sizeof(json) - at,
                         "{\"name\": \"evil\\u001b[31m\", \"version\": \"1\", \"description\": \"");
  for (int i = 0; i < 100 * 1024; ++i) json[at++] = 'x';
  at += (size_t)snprintf(json + at, sizeof(json) - at,
                         "\", \"tier\": 0, \"abi_major\": %d, \"abi_minor\": 0, "
                         "\"required_host_minor\": 0, \"categories\": [\"../../ESCAPED\"",
                         LOUPE_ABI_MAJOR);
  for (int i = 0; i < 151; ++i)
    at += (size_t)snprintf(json + at, sizeof(json) - at, ", \"c%d\"", i);
  at += (size_t)snprintf(json + at, sizeof(json) - at,
                         "], \"reads\": [], \"skills\": [], \"fallback\": false}");
  forge_record('P', json, at);
  forge_record('Z', "", 0);
  _exit(0);
}
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
#elif LOUPE_RAW_VARIANT == 15
  d.name = "test_raw_pre_selectors";
  d.struct_size = offsetof(loupe_plugin_descriptor, contribute_count) + sizeof(d.contribute_count);
  d.selectors = (const loupe_category_selector* const*)(uintptr_t)0x10;
  d.selector_count = 5;
#elif LOUPE_RAW_VARIANT == 16
  {
    static const loupe_category_selector* const selectors[] = {0};
    d.selectors = selectors;
    d.selector_count = 1;
  }
#elif LOUPE_RAW_VARIANT == 14
  d.name = "test_raw_escapes";
  d.version = "1.0\x1b]0;pwned\x07";
  d.description = "a description with \x1b[31mred\x1b[0m text and a bell \x07";
#endif
  return &d;
}
#endif
