/*
 * Loupe plugin ABI, version 1.
 *
 * The only interface that crosses the boundary between the Loupe host and an analyzer plugin
 * (a shared library). Plain C99: no C++ types, no exceptions, no allocator mixing.
 *
 * Rules (see docs/plugin-abi.md for the full text):
 *  - A plugin exports exactly one symbol with C linkage, LOUPE_PLUGIN_ENTRY_SYMBOL, of type
 *    loupe_plugin_entry_fn. Everything else in the plugin is hidden (-fvisibility=hidden).
 *  - Versioning: LOUPE_ABI_MAJOR must be equal on both sides. LOUPE_ABI_MINOR is additive: a
 *    newer minor only appends fields to the end of structs and functions to the end of
 *    loupe_host_services. Neither side ever removes or reorders a field.
 *  - Every struct starts with `struct_size`, set by whoever fills the struct to sizeof() of the
 *    struct it was compiled with. A reader touches a field only when struct_size shows that the
 *    writer knew it (use LOUPE_HAS_FIELD).
 *  - Ownership: every pointer the host hands to a plugin is owned by the host; every pointer the
 *    plugin hands to the host is owned by the plugin. Nobody frees the other side's memory.
 *    Lifetimes are stated next to each function.
 *  - Errors never cross the boundary as exceptions or signals: functions return status codes,
 *    and a plugin reports problems with loupe_host_services.report_error.
 */
#ifndef LOUPE_ABI_H
#define LOUPE_ABI_H

/* A C header: C++-only modernizations do not apply. */
/* NOLINTBEGIN(modernize-use-using,modernize-deprecated-headers) */
#include <stddef.h>
#include <stdint.h>

#define LOUPE_ABI_MAJOR 1
#define LOUPE_ABI_MINOR 2

/* Name of the single exported entry point. */
#define LOUPE_PLUGIN_ENTRY_SYMBOL "loupe_plugin_entry"

#if defined(_WIN32)
#define LOUPE_PLUGIN_EXPORT __declspec(dllexport)
#else
#define LOUPE_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* True when a struct filled by the other side contains FIELD. */
#define LOUPE_HAS_FIELD(ptr, type, field) \
  ((ptr) != NULL && (ptr)->struct_size >= offsetof(type, field) + sizeof(((const type*)0)->field))

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes ------------------------------------------------------------------------ */
typedef int32_t loupe_status;
#define LOUPE_OK 0
#define LOUPE_ERROR 1  /* the analysis failed; the host marks the category ERROR */
#define LOUPE_EINVAL 2 /* a call received an invalid argument (NULL, out of range) */
#define LOUPE_ESTATE 3 /* a call was made at the wrong time (e.g. emitting twice) */

/* ---- Enumerations (int32_t on the wire) --------------------------------------------------- */
#define LOUPE_TIER_SYSTEM 1  /* one findings file under system_findings/ */
#define LOUPE_TIER_COMPUTE 2 /* one findings file per category under category_findings/ */

#define LOUPE_SCOPE_STANDALONE 1
#define LOUPE_SCOPE_COMPARATIVE 2

#define LOUPE_COMPAT_NONE 0      /* Loupe's corrected behaviour (default) */
#define LOUPE_COMPAT_TRACELENS 1 /* reproduce TraceLens exactly, quirks included */

#define LOUPE_WORKLOAD_UNKNOWN 0
#define LOUPE_WORKLOAD_TRAINING 1
#define LOUPE_WORKLOAD_INFERENCE 2

#define LOUPE_LOG_DEBUG 0
#define LOUPE_LOG_INFO 1
#define LOUPE_LOG_WARN 2
#define LOUPE_LOG_ERROR 3

#define LOUPE_JSON_NULL 0
#define LOUPE_JSON_FALSE 1
#define LOUPE_JSON_TRUE 2
#define LOUPE_JSON_INT 3    /* literal without fraction or exponent that fits int64 */
#define LOUPE_JSON_DOUBLE 4 /* any other number, NaN and +/-Infinity included */
#define LOUPE_JSON_STRING 5
#define LOUPE_JSON_ARRAY 6
#define LOUPE_JSON_OBJECT 7

/* Descriptor flags (ABI 1.1). */
#define LOUPE_PLUGIN_FALLBACK 1u /* serves every category of its tier that no plugin claims */

#define LOUPE_CELL_EMPTY 0  /* empty field: a null value */
#define LOUPE_CELL_NUMBER 1 /* parses completely as a Python float(): number is set */
#define LOUPE_CELL_TEXT 2   /* anything else */

/* ---- Opaque handles (all owned by the host) ----------------------------------------------- */
typedef struct loupe_model loupe_model; /* the loaded inputs; read-only; valid during analyze */
typedef struct loupe_json loupe_json;   /* one JSON value inside a model document */
typedef struct loupe_table loupe_table; /* one CSV table of the model */
typedef struct loupe_run loupe_run;     /* the output channel of one analyze call */

/* One CSV cell. The caller sets struct_size; the host fills the fields it knows. */
typedef struct loupe_cell {
  size_t struct_size;
  int32_t kind;     /* LOUPE_CELL_* */
  double number;    /* valid when kind == LOUPE_CELL_NUMBER */
  const char* text; /* field text after CSV unquoting, UTF-8, NUL-terminated; host-owned */
  size_t text_size; /* bytes in text, without the NUL */
} loupe_cell;

/*
 * Services the host offers to a plugin. Append-only: version 1.N adds functions at the end.
 * All returned pointers are host-owned and stay valid until analyze() returns.
 */
typedef struct loupe_host_services {
  size_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;

  /* -- output channel (one analyze call) -- */
  /* Logs a NUL-terminated UTF-8 message with the plugin's name as prefix. */
  void (*log)(loupe_run* run, int32_t level, const char* message);
  /* Records an error for the category; the run ends as ERROR with this message. */
  void (*report_error)(loupe_run* run, const char* message);
  /* Hands over the metrics document (JSON text, UTF-8). The host copies it before returning.
   * At most once per analyze call; the host writes it byte for byte after checking it parses.
   * Returns LOUPE_OK, LOUPE_EINVAL (not valid JSON) or LOUPE_ESTATE (second call). */
  loupe_status (*emit_metrics)(loupe_run* run, const char* json, size_t size);
  /* Hands over the findings document (JSON text following docs/findings-schema.md). Copied,
   * at most once per call, rendered to markdown and validated by the host. */
  loupe_status (*emit_findings)(loupe_run* run, const char* json, size_t size);

  /* -- model: documents (parsed JSON files) -- */
  /* Document by name relative to the analysis directory, e.g.
   * "category_data/category_manifest.json", or a virtual name such as "loupe/arch".
   * NULL when absent. */
  const loupe_json* (*model_document)(const loupe_model* model, const char* name);
  size_t (*model_document_count)(const loupe_model* model);
  const char* (*model_document_name)(const loupe_model* model, size_t index);

  /* -- model: tables (parsed CSV files) -- */
  /* Table by name relative to the analysis directory, e.g.
   * "perf_report_csvs/unified_perf_summary.csv". NULL when absent. */
  const loupe_table* (*model_table)(const loupe_model* model, const char* name);
  size_t (*model_table_count)(const loupe_model* model);
  const char* (*model_table_name)(const loupe_model* model, size_t index);

  /* -- model: properties (NUL-terminated strings; NULL when unknown) --
   * "input_dir" (absolute path of the analysis directory), "output_dir" (where this run writes),
   * "scope" ("standalone" | "comparative"), "platform" (the manifest's platform), and
   * "load_error:<name>" (why input <name> could not be loaded). */
  const char* (*model_property)(const loupe_model* model, const char* key);

  /* -- JSON values -- */
  int32_t (*json_kind)(const loupe_json* value);  /* LOUPE_JSON_* */
  int64_t (*json_int)(const loupe_json* value);   /* INT; 0 otherwise */
  double (*json_double)(const loupe_json* value); /* INT or DOUBLE; NaN otherwise */
  const char* (*json_string)(const loupe_json* value, size_t* size); /* STRING; NULL otherwise */
  size_t (*json_size)(const loupe_json* value); /* ARRAY/OBJECT length; 0 otherwise */
  const loupe_json* (*json_at)(const loupe_json* value, size_t index); /* element / member value */
  const char* (*json_key_at)(const loupe_json* value, size_t index, size_t* size); /* OBJECT */
  /* Member by key (the last one when a key repeats, like Python's json). NULL when absent. */
  const loupe_json* (*json_member)(const loupe_json* value, const char* key, size_t key_size);

  /* -- CSV tables -- */
  size_t (*table_row_count)(const loupe_table* table);
  size_t (*table_column_count)(const loupe_table* table);
  const char* (*table_column_name)(const loupe_table* table, size_t column, size_t* size);
  loupe_status (*table_cell)(const loupe_table* table, size_t row, size_t column, loupe_cell* out);
} loupe_host_services;

/* What the host asks a plugin to do: analyze one category. Host-owned, valid during the call. */
typedef struct loupe_analyze_request {
  size_t struct_size;
  const loupe_host_services* host;
  loupe_run* run;
  const loupe_model* model;
  /* The category to analyze: one of the descriptor's categories, or (ABI 1.1) a manifest
   * category routed to this plugin by one of its skills or because it is the fallback. */
  const char* category;
  int32_t scope;    /* LOUPE_SCOPE_* */
  int32_t compat;   /* LOUPE_COMPAT_* */
  int32_t workload; /* LOUPE_WORKLOAD_* */
} loupe_analyze_request;

/* Analyze one category. Must not throw or longjmp; returns LOUPE_OK or LOUPE_ERROR. */
typedef loupe_status (*loupe_analyze_fn)(const loupe_analyze_request* request);

/* What the host tells the plugin about itself when it calls the entry point. */
typedef struct loupe_host_info {
  size_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  const char* host_version; /* e.g. "0.1.0" */
} loupe_host_info;

/* ABI 1.2: a vendor category and the GPU ops that belong to it (docs/plugin-abi.md, "Vendor
 * categories"). `loupe analyze --trace` writes category_data/<category>_ops.csv with the rows of
 * the perf summary that match, and the category is routed to the plugin as its primary. Patterns
 * follow the selector syntax of docs/plugin-abi.md (a glob subset: * ? [...] |, full match,
 * case-sensitive); NULL or "" leaves that side unconstrained, but not both. Plugin-owned, static
 * storage. */
typedef struct loupe_category_selector {
  size_t struct_size;
  const char* category;       /* one of the descriptor's `categories` */
  const char* kernel_pattern; /* a GPU op (kernel, memcpy, memset) name pattern, or NULL */
  const char* op_pattern;     /* an op name pattern (the perf summary's `name`), or NULL */
  int32_t tier;               /* 0: the plugin's tier; else LOUPE_TIER_* */
} loupe_category_selector;

/*
 * What a plugin is. Plugin-owned, static storage: valid until the library is unloaded.
 */
typedef struct loupe_plugin_descriptor {
  size_t struct_size;
  uint32_t abi_major;            /* LOUPE_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;            /* LOUPE_ABI_MINOR the plugin was built with */
  uint32_t required_host_minor;  /* oldest host-services minor whose functions it calls */
  const char* name;              /* short identifier, e.g. "conv" */
  const char* version;           /* plugin version, e.g. "1.0.0" */
  const char* description;       /* one line */
  int32_t tier;                  /* LOUPE_TIER_* */
  const char* const* categories; /* categories it analyzes, e.g. {"conv_fwd","conv_bwd"} */
  size_t category_count;
  const char* const* reads; /* categories whose results it reads (run before it) */
  size_t read_count;
  loupe_analyze_fn analyze;
  /* ---- ABI 1.1 ---- */
  /* Manifest skills it serves (categories[].skill of category_manifest.json, e.g.
   * "norm-analyzer"): a manifest category that no plugin names in `categories` goes to the
   * plugin that declares its skill. */
  const char* const* skills;
  size_t skill_count;
  uint32_t flags; /* LOUPE_PLUGIN_* */
  /* ---- ABI 1.2 ---- */
  /* Categories it contributes findings to beside their primary analyzer (docs/plugin-abi.md,
   * "Contributing analyzers"): it runs for each of them that the run analyzes, after the primary,
   * and writes category_findings/<cat>.<name>_findings.md. Contributing claims nothing: any
   * number of plugins may contribute to one category. With ABI 1.2, `categories` may be empty
   * when `contributes` is not. */
  const char* const* contributes;
  size_t contribute_count;
  /* Vendor categories (see loupe_category_selector): several selectors of one category add up.
   * The host reads these two fields only when struct_size shows them. */
  const loupe_category_selector* const* selectors;
  size_t selector_count;
} loupe_plugin_descriptor;

/* The entry point. Returns NULL when the plugin cannot work with this host. Must not throw. */
typedef const loupe_plugin_descriptor* (*loupe_plugin_entry_fn)(const loupe_host_info* host);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* NOLINTEND(modernize-use-using,modernize-deprecated-headers) */
#endif /* LOUPE_ABI_H */
