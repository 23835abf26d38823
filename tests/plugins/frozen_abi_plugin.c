/* A plugin built against a frozen copy of an older ABI header (tests/abi/1.<minor>/loupe/abi.h,
 * chosen by the include path), for the compatibility promise of docs/plugin-abi.md
 * ("Compatibility promise"): the current host must load and run it unchanged. It analyzes one
 * category (and, built against 1.1, serves the manifest skill "frozen-skill"), reports the minor
 * of the header it was compiled with in its metrics, and emits a NO_DATA system findings
 * document. */
#include <stdio.h>
#include <string.h>

#include "loupe/abi.h"

static loupe_status analyze(const loupe_analyze_request* request) {
  char metrics[512];
  char findings[1024];
  const int m = snprintf(metrics, sizeof metrics,
                         "{\"category\": \"%s\", \"status\": \"NO_DATA\", \"built_abi_minor\": %d}",
                         request->category, LOUPE_ABI_MINOR);
  const int f = snprintf(findings, sizeof findings,
                         "{\"schema\": \"loupe.findings/1\", \"style\": \"system\", \"category\": "
                         "\"%s\", \"scope\": \"standalone\", \"status\": \"NO_DATA\", \"message\": "
                         "\"built against the frozen ABI 1.%d header\", \"title\": \"Frozen ABI "
                         "plugin\", \"sections\": [], \"recommendations\": [], \"details\": [], "
                         "\"trailing_sections\": []}",
                         request->category, LOUPE_ABI_MINOR);
  if (m <= 0 || f <= 0 || (size_t)m >= sizeof metrics || (size_t)f >= sizeof findings) {
    request->host->report_error(request->run, "category name too long");
    return LOUPE_ERROR;
  }
  if (request->host->emit_metrics(request->run, metrics, (size_t)m) != LOUPE_OK ||
      request->host->emit_findings(request->run, findings, (size_t)f) != LOUPE_OK) {
    return LOUPE_ERROR;
  }
  return LOUPE_OK;
}

#if LOUPE_ABI_MINOR == 0
static const char* const categories[] = {"frozen_abi10"};
#else
static const char* const categories[] = {"frozen_abi11"};
static const char* const skills[] = {"frozen-skill"};
#endif

LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* loupe_plugin_entry(const loupe_host_info* host);
LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* loupe_plugin_entry(const loupe_host_info* host) {
  static loupe_plugin_descriptor d;
  if (host == NULL || host->abi_major != LOUPE_ABI_MAJOR) return NULL;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  d.abi_major = LOUPE_ABI_MAJOR;
  d.abi_minor = LOUPE_ABI_MINOR;
  d.required_host_minor = 0;
#if LOUPE_ABI_MINOR == 0
  d.name = "frozen_abi10";
#else
  d.name = "frozen_abi11";
  d.skills = skills;
  d.skill_count = 1;
  d.flags = 0;
#endif
  d.version = "1.0.0";
  d.description = "built against a frozen ABI header";
  d.tier = LOUPE_TIER_SYSTEM;
  d.categories = categories;
  d.category_count = 1;
  d.analyze = analyze;
  return &d;
}
