#include "plugin_probe.hpp"

#include <algorithm>
#include <cstring>

#include <rapidjson/document.h>

#include "../isolation/child_process.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/json_value.hpp"
#include "plugin_library.hpp"

namespace loupe::core {

namespace {

// A C string from the descriptor, read at most `limit` + 1 bytes far.
bool bounded_string(const char* text, std::size_t limit, std::string& out) {
  if (text == nullptr) return false;
  const std::size_t length = ::strnlen(text, limit + 1);
  if (length > limit) return false;
  out.assign(text, length);
  return true;
}

std::string name_list(const char* const* items, std::size_t count, const char* what,
                      std::vector<std::string>& out) {
  if (count > kMaxCategories) {
    return "descriptor declares " + std::to_string(count) + " " + what + " (at most " +
           std::to_string(kMaxCategories) + ")";
  }
  if (count > 0 && items == nullptr) return std::string("descriptor has a NULL ") + what + " list";
  for (std::size_t i = 0; i < count; ++i) {
    std::string name;
    if (!bounded_string(items[i], kMaxNameLength, name) || !is_safe_name(name)) {
      return std::string("descriptor has an invalid ") + what +
             " name (1-64 characters of A-Z a-z 0-9 _ -, starting with a letter or digit)";
    }
    out.push_back(std::move(name));
  }
  return {};
}

// ABI 1.2 selectors: copied, not yet judged (check_selectors compiles the patterns).
std::string selector_list(const loupe_plugin_descriptor* d, std::vector<CategorySelector>& out) {
  if (d->selector_count > kMaxCategories) {
    return "descriptor declares " + std::to_string(d->selector_count) + " selectors (at most " +
           std::to_string(kMaxCategories) + ")";
  }
  if (d->selector_count > 0 && d->selectors == nullptr) {
    return "descriptor has a NULL selectors list";
  }
  for (std::size_t i = 0; i < d->selector_count; ++i) {
    const loupe_category_selector* s = d->selectors[i];
    const std::string which = "selector " + std::to_string(i);
    if (s == nullptr || !LOUPE_HAS_FIELD(s, loupe_category_selector, tier)) {
      return "descriptor " + which + " is NULL or too small";
    }
    CategorySelector copy;
    if (!bounded_string(s->category, kMaxNameLength, copy.category) ||
        !is_safe_name(copy.category)) {
      return "descriptor " + which +
             " has an invalid category name (1-64 characters of A-Z a-z 0-9 _ -, starting with a "
             "letter or digit)";
    }
    if ((s->kernel_pattern != nullptr &&
         !bounded_string(s->kernel_pattern, kMaxPatternCopy, copy.kernel_pattern)) ||
        (s->op_pattern != nullptr &&
         !bounded_string(s->op_pattern, kMaxPatternCopy, copy.op_pattern))) {
      return "descriptor " + which + " has a pattern longer than " +
             std::to_string(kMaxPatternCopy) + " bytes";
    }
    if (s->tier == LOUPE_TIER_SYSTEM || s->tier == LOUPE_TIER_COMPUTE) {
      copy.tier = static_cast<Tier>(s->tier);
    } else if (s->tier != 0) {
      return "descriptor " + which + " has an unknown tier " + std::to_string(s->tier);
    }
    out.push_back(std::move(copy));
  }
  return {};
}

std::string encode_info(const PluginInfo& info) {
  Json j = Json::object();
  j["name"] = info.name;
  j["version"] = info.version;
  j["description"] = info.description;
  j["tier"] = static_cast<std::int64_t>(info.tier);
  j["abi_major"] = static_cast<std::int64_t>(info.abi_major);
  j["abi_minor"] = static_cast<std::int64_t>(info.abi_minor);
  j["required_host_minor"] = static_cast<std::int64_t>(info.required_host_minor);
  j["categories"] = string_array(info.categories);
  j["reads"] = string_array(info.reads);
  j["skills"] = string_array(info.skills);
  j["fallback"] = info.fallback;
  j["contributes"] = string_array(info.contributes);
  Json selectors = Json::array();
  for (const auto& sel : info.selectors) {
    Json one = Json::object();
    one["category"] = sel.category;
    one["kernel_pattern"] = sel.kernel_pattern;
    one["op_pattern"] = sel.op_pattern;
    one["tier"] = sel.tier ? static_cast<std::int64_t>(*sel.tier) : std::int64_t{0};
    selectors.push_back(std::move(one));
  }
  j["selectors"] = std::move(selectors);
  return dump_python_json(j, -1, false);
}

std::optional<PluginInfo> decode_info(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  PluginInfo info;
  auto string_field = [&](const char* key, std::string& out) {
    const auto it = doc.FindMember(key);
    if (it == doc.MemberEnd() || !it->value.IsString()) return false;
    out = it->value.GetString();
    return true;
  };
  auto uint_field = [&](const char* key, std::uint32_t& out) {
    const auto it = doc.FindMember(key);
    if (it == doc.MemberEnd() || !it->value.IsUint()) return false;
    out = it->value.GetUint();
    return true;
  };
  auto list_field = [&](const char* key, std::vector<std::string>& out) {
    const auto it = doc.FindMember(key);
    if (it == doc.MemberEnd() || !it->value.IsArray()) return false;
    for (const auto& v : it->value.GetArray()) {
      if (!v.IsString()) return false;
      out.emplace_back(v.GetString());
    }
    return true;
  };
  std::uint32_t tier = 0;
  if (!string_field("name", info.name) || !string_field("version", info.version) ||
      !string_field("description", info.description) || !uint_field("tier", tier) ||
      !uint_field("abi_major", info.abi_major) || !uint_field("abi_minor", info.abi_minor) ||
      !uint_field("required_host_minor", info.required_host_minor) ||
      !list_field("categories", info.categories) || !list_field("reads", info.reads) ||
      !list_field("skills", info.skills)) {
    return std::nullopt;
  }
  // Written by this host's probe child; absent from a record that something else wrote.
  if (doc.HasMember("contributes") && !list_field("contributes", info.contributes)) {
    return std::nullopt;
  }
  if (const auto it = doc.FindMember("selectors"); it != doc.MemberEnd()) {
    if (!it->value.IsArray()) return std::nullopt;
    for (const auto& v : it->value.GetArray()) {
      if (!v.IsObject()) return std::nullopt;
      CategorySelector sel;
      const auto member_text = [&](const char* key, std::string& out) {
        const auto m = v.FindMember(key);
        if (m == v.MemberEnd() || !m->value.IsString()) return false;
        out.assign(m->value.GetString(), m->value.GetStringLength());
        return true;
      };
      const auto sel_tier = v.FindMember("tier");
      if (!member_text("category", sel.category) ||
          !member_text("kernel_pattern", sel.kernel_pattern) ||
          !member_text("op_pattern", sel.op_pattern) || sel_tier == v.MemberEnd() ||
          !sel_tier->value.IsInt()) {
        return std::nullopt;
      }
      const int t = sel_tier->value.GetInt();
      if (t == LOUPE_TIER_SYSTEM || t == LOUPE_TIER_COMPUTE) sel.tier = static_cast<Tier>(t);
      if (t != 0 && !sel.tier) return std::nullopt;
      info.selectors.push_back(std::move(sel));
    }
  }
  const auto fallback = doc.FindMember("fallback");
  if (fallback == doc.MemberEnd() || !fallback->value.IsBool()) return std::nullopt;
  info.fallback = fallback->value.GetBool();
  info.tier = static_cast<Tier>(tier);
  return info;
}

// The description a probe child handed back, checked again by the host (a plugin's constructor
// can write a forged record onto the pipe): the same rules as check_descriptor. Returns "" or
// what is wrong.
std::string recheck_info(const PluginInfo& info) {
  auto names_ok = [](const std::vector<std::string>& names) {
    if (names.size() > kMaxCategories) return false;
    return std::all_of(names.begin(), names.end(), [](const std::string& n) {
      return n.size() <= kMaxNameLength && is_safe_name(n);
    });
  };
  if (info.name.size() > kMaxNameLength || !is_safe_name(info.name)) return "an invalid name";
  if (info.version.size() > kMaxVersionLength) return "a version that is too long";
  if (info.description.size() > kMaxDescriptionLength) return "a description that is too long";
  if (info.abi_major != LOUPE_ABI_MAJOR || info.required_host_minor > LOUPE_ABI_MINOR) {
    return "an ABI this host does not provide";
  }
  if (info.tier != Tier::System && info.tier != Tier::Compute) return "an unknown tier";
  if ((info.categories.empty() && info.contributes.empty()) || !names_ok(info.categories) ||
      !names_ok(info.reads) || !names_ok(info.skills) || !names_ok(info.contributes)) {
    return "invalid or too many category, reads, skill or contributes names";
  }
  for (const auto& c : info.contributes) {
    if (std::find(info.categories.begin(), info.categories.end(), c) != info.categories.end()) {
      return "a category it both analyzes and contributes to";
    }
  }
  if (info.selectors.size() > kMaxCategories) return "too many selectors";
  for (const auto& sel : info.selectors) {
    if (!is_safe_name(sel.category) || sel.category.size() > kMaxNameLength ||
        sel.kernel_pattern.size() > kMaxPatternCopy || sel.op_pattern.size() > kMaxPatternCopy) {
      return "an invalid selector";
    }
  }
  return {};
}

// In a child: open, read, check; hand back the info or the reason.
void probe_in_child(const std::filesystem::path& path, int wire_fd) {
  PluginLibrary library;
  std::string reason = library.open(path);
  PluginInfo info;
  if (reason.empty()) reason = check_descriptor(library.descriptor(), info);
  if (!reason.empty()) {
    isolation::write_record(wire_fd, isolation::WireTag::Error, reason);
    return;
  }
  isolation::write_record(wire_fd, isolation::WireTag::PluginInfo, encode_info(info));
}

}  // namespace

std::string check_descriptor(const loupe_plugin_descriptor* d, PluginInfo& out) {
  if (d == nullptr) return "entry point returned NULL (the plugin refused this host)";
  if (d->struct_size < offsetof(loupe_plugin_descriptor, analyze) + sizeof(d->analyze)) {
    return "descriptor too small (" + std::to_string(d->struct_size) + " bytes)";
  }
  if (d->abi_major != LOUPE_ABI_MAJOR) {
    return "ABI major " + std::to_string(d->abi_major) + " does not match host ABI major " +
           std::to_string(LOUPE_ABI_MAJOR);
  }
  if (d->required_host_minor > LOUPE_ABI_MINOR) {
    return "needs host services of ABI 1." + std::to_string(d->required_host_minor) +
           " but this host provides 1." + std::to_string(LOUPE_ABI_MINOR);
  }
  if (d->name == nullptr || d->name[0] == '\0') return "descriptor has no name";
  if (!bounded_string(d->name, kMaxNameLength, out.name) || !is_safe_name(out.name)) {
    return "descriptor has an invalid plugin name (1-64 characters of A-Z a-z 0-9 _ -, starting "
           "with a letter or digit)";
  }
  if (d->version != nullptr && !bounded_string(d->version, kMaxVersionLength, out.version)) {
    return "descriptor version is longer than " + std::to_string(kMaxVersionLength) + " bytes";
  }
  if (d->description != nullptr &&
      !bounded_string(d->description, kMaxDescriptionLength, out.description)) {
    return "descriptor description is longer than " + std::to_string(kMaxDescriptionLength) +
           " bytes";
  }
  if (d->analyze == nullptr) return "descriptor has no analyze function";
  if (d->tier != LOUPE_TIER_SYSTEM && d->tier != LOUPE_TIER_COMPUTE) {
    return "descriptor has an unknown tier " + std::to_string(d->tier);
  }
  out.tier = static_cast<Tier>(d->tier);
  if (auto why = name_list(d->categories, d->category_count, "category", out.categories);
      !why.empty()) {
    return why;
  }
  if (auto why = name_list(d->reads, d->read_count, "reads", out.reads); !why.empty()) return why;
  // ABI 1.1 fields: read only when the plugin was built with them.
  if (d->abi_minor >= 1 && LOUPE_HAS_FIELD(d, loupe_plugin_descriptor, flags)) {
    if (auto why = name_list(d->skills, d->skill_count, "skill", out.skills); !why.empty()) {
      return why;
    }
    // Flags a later minor adds are unknown here and ignored (the ABI only adds).
    out.fallback = (d->flags & LOUPE_PLUGIN_FALLBACK) != 0;
  }
  // ABI 1.2 fields: the same.
  if (d->abi_minor >= 2 && LOUPE_HAS_FIELD(d, loupe_plugin_descriptor, contribute_count)) {
    if (auto why = name_list(d->contributes, d->contribute_count, "contributes", out.contributes);
        !why.empty()) {
      return why;
    }
    for (const auto& c : out.contributes) {
      if (std::find(out.categories.begin(), out.categories.end(), c) != out.categories.end()) {
        return "descriptor both analyzes and contributes to category '" + c + "'";
      }
    }
  }
  // ABI 1.2 selectors (added after `contributes`): read only when struct_size shows them, so a
  // 1.2 plugin built before them keeps its meaning.
  if (d->abi_minor >= 2 && LOUPE_HAS_FIELD(d, loupe_plugin_descriptor, selector_count)) {
    if (auto why = selector_list(d, out.selectors); !why.empty()) return why;
  }
  if (out.categories.empty() && out.contributes.empty()) {
    return "descriptor declares no category";
  }
  out.abi_major = d->abi_major;
  out.abi_minor = d->abi_minor;
  out.required_host_minor = d->required_host_minor;
  return {};
}

ProbeOutcome probe_plugin(const std::filesystem::path& path, bool isolate,
                          std::chrono::milliseconds timeout) {
  ProbeOutcome outcome;
  if (!isolate) {
    PluginLibrary library;
    outcome.reason = library.open(path);
    PluginInfo info;
    if (outcome.reason.empty()) outcome.reason = check_descriptor(library.descriptor(), info);
    if (outcome.reason.empty()) outcome.info = std::move(info);
    return outcome;
  }
  isolation::ChildOptions options;
  options.timeout = timeout;
  const auto report =
      isolation::run_in_child(options, [&](int wire_fd) { probe_in_child(path, wire_fd); }, {});
  isolation::log_captured_output(path.filename().string(), report.captured_output);
  if (const std::string why = report.failure(options); !why.empty()) {
    outcome.reason = "the plugin " + why + " while being loaded";
    return outcome;
  }
  std::size_t descriptions = 0;
  for (const auto& record : report.records) {
    if (record.tag == isolation::WireTag::Error) {
      outcome.reason = replace_invalid_utf8(record.payload.substr(0, 4096));
      outcome.info.reset();
      return outcome;
    }
    if (record.tag == isolation::WireTag::PluginInfo) {
      ++descriptions;
      outcome.info = decode_info(record.payload);
    }
  }
  if (descriptions > 1) {
    outcome.info.reset();
    outcome.reason = "the probe handed back more than one description (forged records)";
    return outcome;
  }
  if (!outcome.info) {
    outcome.reason = "the probe handed back no usable description";
    return outcome;
  }
  if (const std::string why = recheck_info(*outcome.info); !why.empty()) {
    outcome.info.reset();
    outcome.reason = "the probe handed back a description with " + why + " (forged records)";
    return outcome;
  }
  outcome.info->version = replace_invalid_utf8(outcome.info->version);
  outcome.info->description = replace_invalid_utf8(outcome.info->description);
  return outcome;
}

}  // namespace loupe::core
