// What pandas groups an op's rows on in TraceLens's ops_unique_args.csv and unified perf summary:
// the str() of name, op category, process name, process label, thread name and the four args
// ("None" where the op has none), plus the kernel count where that is a grouping column. The key
// holds views of the row's texts, so grouping hundreds of thousands of rows builds no string.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace loupe::core::prepare {

struct OpGroupKey {
  std::array<std::string_view, 9> texts;
  std::int64_t num_kernels = -1;  // -1: not grouped on
  bool operator==(const OpGroupKey&) const = default;
};

struct OpGroupKeyHash {
  std::size_t operator()(const OpGroupKey& key) const {
    std::size_t h = std::hash<std::int64_t>()(key.num_kernels);
    for (const std::string_view text : key.texts) {
      h = (h ^ std::hash<std::string_view>()(text)) * 1099511628211ULL;
    }
    return h;
  }
};

// `Row` has name, category, process_name, process_label, thread_name (texts) and args[4]
// (`const std::string*`, null for None): the launcher rows and the unified rows.
template <typename Row>
OpGroupKey op_group_key(const Row& row) {
  OpGroupKey key;
  key.texts = {row.name,        row.category, row.process_name, row.process_label,
               row.thread_name, "None",       "None",           "None",
               "None"};
  for (std::size_t i = 0; i < std::size(row.args); ++i) {
    if (row.args[i] != nullptr) key.texts[5 + i] = *row.args[i];
  }
  return key;
}

}  // namespace loupe::core::prepare
