/* What one build of the framework-test behaviour plugin does (behavior_plugin.cpp). The plugin's
 * code is compiled once; each test plugin links it with a generated C file that defines
 * loupe_test_config, so a new case costs one tiny C compile instead of a C++ one. */
#ifndef LOUPE_TESTS_BEHAVIOR_CONFIG_H
#define LOUPE_TESTS_BEHAVIOR_CONFIG_H

#ifdef __cplusplus
extern "C" {
#endif

struct loupe_test_behavior_config {
  int behavior;         /* what analyze() does: the list at the top of behavior_plugin.cpp */
  const char* name;     /* plugin name */
  const char* category; /* the one category it declares */
  const char* skill;    /* one manifest skill it serves, or NULL */
  int fallback;         /* non-zero: its tier's fallback (routing tests) */
  int contributes;      /* non-zero: `category` is declared as contributed to (ABI 1.2), and the
                           plugin analyzes no category of its own */
};

extern const struct loupe_test_behavior_config loupe_test_config;

#ifdef __cplusplus
}
#endif

#endif
