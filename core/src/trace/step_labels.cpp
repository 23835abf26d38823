// Parsers of the serving engines' step labels (see loupe/core/trace/step_labels.hpp). Labels
// are matched at their start, in TraceLens's priority order; a number that does not parse counts
// as 0.
#include "loupe/core/trace/step_labels.hpp"

#include <charconv>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace loupe::core::trace {
namespace {

std::int64_t int_or_zero(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() ? v : 0;
}

std::int64_t value_of(const std::map<std::string, std::string>& kv, const char* key) {
  const auto it = kv.find(key);
  return it == kv.end() ? 0 : int_or_zero(it->second);
}

// vLLM: the label flattened to "_"-separated fields (parentheses and runs of the letters s, q,
// k become separators), read by position.
StepTokenCounts vllm_counts(const std::string& label) {
  std::string flat;
  for (std::size_t i = 0; i < label.size(); ++i) {
    const char c = label[i] == '(' || label[i] == ')' ? '_' : label[i];
    if (c == 's' || c == 'q' || c == 'k') {
      flat.push_back('_');
      while (i + 1 < label.size() &&
             (label[i + 1] == 's' || label[i + 1] == 'q' || label[i + 1] == 'k')) {
        ++i;
      }
      continue;
    }
    flat.push_back(c);
  }
  std::vector<std::string_view> fields;
  std::string_view rest(flat);
  for (std::size_t cut = rest.find('_'); cut != std::string_view::npos; cut = rest.find('_')) {
    fields.push_back(rest.substr(0, cut));
    rest.remove_prefix(cut + 1);
  }
  fields.push_back(rest);
  const auto field = [&](std::size_t i) { return i < fields.size() ? int_or_zero(fields[i]) : 0; };
  return {field(5), field(6), field(7), field(8), field(13), field(14), field(15), field(16)};
}

std::map<std::string, std::string> key_values(const std::string& body, const std::regex& pair) {
  std::map<std::string, std::string> kv;
  for (std::sregex_iterator it(body.begin(), body.end(), pair), end; it != end; ++it) {
    kv[(*it)[1].str()] = (*it)[2].str();
  }
  return kv;
}

}  // namespace

std::optional<StepTokenCounts> step_token_counts(std::string_view annotation) {
  static const std::regex kVllm(
      R"(^execute_\d+_context_\d+\(sq\d+sk\d+sqsq\d+sqsk\d+\)_generation_\d+\(sq\d+sk\d+sqsq\d+sqsk\d+\))");
  static const std::regex kSglang(R"(^step\[(?:EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\])");
  static const std::regex kAtom(R"(^(prefill|decode)\[(.*)\])");
  static const std::regex kAtomDetailed(R"(^(prefill|decode)\[.*sqsq=\d+.*\])");
  const std::string label(annotation);
  std::smatch m;
  if (std::regex_search(label, kVllm)) return vllm_counts(label);
  if (std::regex_search(label, kSglang)) {
    const std::string body =
        label.substr(label.find('[') + 1, label.rfind(']') - label.find('[') - 1);
    static const std::regex kPair(R"((\w+)=(\d+))");
    const auto kv = key_values(body, kPair);
    return StepTokenCounts{value_of(kv, "c_sq"),   value_of(kv, "c_sk"),  value_of(kv, "c_sqsq"),
                           value_of(kv, "c_sqsk"), value_of(kv, "g_sq"),  value_of(kv, "g_sk"),
                           value_of(kv, "g_sqsq"), value_of(kv, "g_sqsk")};
  }
  if (std::regex_search(label, kAtomDetailed) && std::regex_search(label, m, kAtom)) {
    static const std::regex kPair(R"((\w+)=(\[[^\]]*\](?:\.\.\.\+\d+)?|\S+))");
    const auto kv = key_values(m[2].str(), kPair);
    if (!kv.contains("sqsq") || !kv.contains("sqsk")) return std::nullopt;
    const std::int64_t tok = value_of(kv, "tok"), sk = value_of(kv, "sk");
    const std::int64_t sqsq = value_of(kv, "sqsq"), sqsk = value_of(kv, "sqsk");
    StepTokenCounts c;
    if (m[1].str() == "prefill") {
      c.c_sq = tok, c.c_sk = sk, c.c_sqsq = sqsq, c.c_sqsk = sqsk;
    } else {
      c.g_sq = tok, c.g_sk = sk, c.g_sqsq = sqsq, c.g_sqsk = sqsk;
    }
    return c;
  }
  return std::nullopt;
}

std::string_view step_label_format_name(StepLabelFormat format) {
  switch (format) {
    case StepLabelFormat::kVllmExecute:
      return "vLLM execute";
    case StepLabelFormat::kSglangStep:
      return "SGLang step";
    case StepLabelFormat::kAtom:
      return "ATOM";
    case StepLabelFormat::kXditDiffusion:
      return "xDiT diffusion";
  }
  return "unknown";
}

std::string_view step_phase_name(StepPhase phase) {
  switch (phase) {
    case StepPhase::kPrefill:
      return "prefill";
    case StepPhase::kDecode:
      return "decode";
    case StepPhase::kMixed:
      return "mixed";
    case StepPhase::kDiffusion:
      return "diffusion";
    case StepPhase::kUnknown:
      break;
  }
  return "unknown";
}

namespace {

StepPhase phase_of(std::int64_t prefill_requests, std::int64_t decode_requests) {
  if (prefill_requests > 0 && decode_requests > 0) return StepPhase::kMixed;
  if (prefill_requests > 0) return StepPhase::kPrefill;
  if (decode_requests > 0) return StepPhase::kDecode;
  return StepPhase::kUnknown;
}

std::optional<std::int64_t> optional_value(const std::map<std::string, std::string>& kv,
                                           const char* key) {
  const auto it = kv.find(key);
  if (it == kv.end()) return std::nullopt;
  return int_or_zero(it->second);
}

}  // namespace

std::optional<StepLabel> parse_step_label(std::string_view annotation) {
  // vLLM, detailed and native: the request counts follow context_ / generation_, the query
  // tokens are the first number inside each parenthesis.
  static const std::regex kVllmDetailed(
      R"(^execute_\d+_context_(\d+)\(sq(\d+)sk\d+sqsq\d+sqsk\d+\)_generation_(\d+)\(sq(\d+)sk)");
  static const std::regex kVllmNative(
      R"(^execute_context_(\d+)\((\d+)\)_generation_(\d+)\((\d+)\))");
  static const std::regex kSglang(R"(^step\[(EXTEND|DECODE|MIXED|PREFILL|IDLE)\b([^\]]*)\])");
  static const std::regex kAtom(R"(^(prefill|decode)\[([^\]]*)\])");
  static const std::regex kPair(R"((\w+)=(\d+))");
  const std::string label(annotation);
  std::smatch m;
  if (std::regex_search(label, m, kVllmDetailed) || std::regex_search(label, m, kVllmNative)) {
    StepLabel s;
    s.format = StepLabelFormat::kVllmExecute;
    s.prefill_requests = int_or_zero(m[1].str());
    s.prefill_tokens = int_or_zero(m[2].str());
    s.decode_requests = int_or_zero(m[3].str());
    s.decode_tokens = int_or_zero(m[4].str());
    s.phase = phase_of(*s.prefill_requests, *s.decode_requests);
    return s;
  }
  if (std::regex_search(label, m, kSglang)) {
    StepLabel s;
    s.format = StepLabelFormat::kSglangStep;
    const std::string mode = m[1].str();
    s.phase = mode == "DECODE"                        ? StepPhase::kDecode
              : mode == "EXTEND" || mode == "PREFILL" ? StepPhase::kPrefill
              : mode == "MIXED"                       ? StepPhase::kMixed
                                                      : StepPhase::kUnknown;
    const auto kv = key_values(m[2].str(), kPair);
    s.batch_size = optional_value(kv, "bs");
    s.prefill_tokens = optional_value(kv, "c_sq");
    s.decode_tokens = optional_value(kv, "g_sq");
    if (s.phase == StepPhase::kDecode && s.batch_size) s.decode_requests = s.batch_size;
    if (s.phase == StepPhase::kPrefill && s.batch_size) s.prefill_requests = s.batch_size;
    return s;
  }
  if (std::regex_search(label, m, kAtom)) {
    StepLabel s;
    s.format = StepLabelFormat::kAtom;
    const bool prefill = m[1].str() == "prefill";
    s.phase = prefill ? StepPhase::kPrefill : StepPhase::kDecode;
    const auto kv = key_values(m[2].str(), kPair);
    s.batch_size = optional_value(kv, "bs");
    (prefill ? s.prefill_requests : s.decode_requests) = s.batch_size;
    (prefill ? s.prefill_tokens : s.decode_tokens) = optional_value(kv, "tok");
    return s;
  }
  if (label.starts_with("execute_diffusion")) {
    StepLabel s;
    s.format = StepLabelFormat::kXditDiffusion;
    s.phase = StepPhase::kDiffusion;
    return s;
  }
  return std::nullopt;
}

}  // namespace loupe::core::trace
