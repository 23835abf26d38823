#include "loupe/compute/py_literal.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "loupe/python_format.hpp"

namespace loupe::compute {

bool PyValue::truthy() const {
  if (is_none()) return false;
  if (is_bool()) return as_bool();
  if (is_int()) return as_int() != 0;
  if (is_float()) return as_float() != 0.0;
  if (is_string()) return !as_string().empty();
  if (is_sequence()) return !items().empty();
  if (is_set()) return !as_set().items.empty();
  return !as_dict().empty();
}

std::optional<double> PyValue::number() const {
  if (is_bool()) return as_bool() ? 1.0 : 0.0;
  if (is_int()) return static_cast<double>(as_int());
  if (is_float()) return as_float();
  return std::nullopt;
}

const PyValue* PyValue::get(std::string_view key) const {
  if (!is_dict()) return nullptr;
  for (const auto& [k, v] : as_dict()) {
    if (k.is_string() && k.as_string() == key) return &v;
  }
  return nullptr;
}

namespace {

std::string string_repr(const std::string& s) {
  const bool use_double = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : s) {
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  out += quote;
  return out;
}

}  // namespace

std::string PyValue::str() const { return is_string() ? as_string() : repr(); }

std::string PyValue::repr() const {
  if (is_none()) return "None";
  if (is_bool()) return as_bool() ? "True" : "False";
  if (is_int()) return std::to_string(as_int());
  if (is_float()) return py::float_repr(as_float());
  if (is_string()) return string_repr(as_string());
  if (is_sequence()) {
    const auto& list = as_list();
    std::string out = list.is_tuple ? "(" : "[";
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i > 0) out += ", ";
      out += list.items[i].repr();
    }
    if (list.is_tuple && list.items.size() == 1) out += ",";
    out += list.is_tuple ? ")" : "]";
    return out;
  }
  if (is_set()) {
    const auto& items = as_set().items;
    if (items.empty()) return "set()";
    std::string out = "{";
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += ", ";
      out += items[i].repr();
    }
    return out + "}";
  }
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : as_dict()) {
    if (!first) out += ", ";
    first = false;
    out += k.repr() + ": " + v.repr();
  }
  return out + "}";
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<PyValue> parse_all() {
    auto value = parse_expression_list();
    skip_space();
    if (!value || pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool peek(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool consume(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }

  // "a, b" at top level is a tuple, like literal_eval.
  std::optional<PyValue> parse_expression_list() {
    auto first = parse_value();
    if (!first) return std::nullopt;
    if (!peek(',')) return first;
    PyValue::List tuple{{std::move(*first)}, true};
    while (consume(',')) {
      skip_space();
      if (pos_ == text_.size()) break;
      auto next = parse_value();
      if (!next) return std::nullopt;
      tuple.items.push_back(std::move(*next));
    }
    return PyValue(std::move(tuple));
  }

  std::optional<PyValue> parse_sequence(char close, bool is_tuple) {
    PyValue::List list{{}, is_tuple};
    bool saw_comma = false;
    while (true) {
      if (consume(close)) break;
      auto item = parse_value();
      if (!item) return std::nullopt;
      list.items.push_back(std::move(*item));
      if (consume(',')) {
        saw_comma = true;
        continue;
      }
      if (!consume(close)) return std::nullopt;
      break;
    }
    // "(x)" is just x; "(x,)" and "()" are tuples.
    if (is_tuple && list.items.size() == 1 && !saw_comma) return std::move(list.items.front());
    return PyValue(std::move(list));
  }

  // "{k: v, ...}" is a dict, "{a, b}" a set; "{}" is an empty dict.
  std::optional<PyValue> parse_dict_or_set() {
    if (consume('}')) return PyValue(PyValue::Dict{});
    auto first = parse_value();
    if (!first) return std::nullopt;
    if (!peek(':')) return parse_set_rest(std::move(*first));
    PyValue::Dict dict;
    std::optional<PyValue> key = std::move(first);
    while (true) {
      if (!key || !consume(':')) return std::nullopt;
      auto value = parse_value();
      if (!value) return std::nullopt;
      dict.emplace_back(std::move(*key), std::move(*value));
      if (!consume(',')) {
        if (!consume('}')) return std::nullopt;
        break;
      }
      if (consume('}')) break;
      key = parse_value();
    }
    return PyValue(std::move(dict));
  }

  std::optional<PyValue> parse_set_rest(PyValue first) {
    PyValue::Set set{{std::move(first)}};
    while (consume(',')) {
      if (consume('}')) return PyValue(std::move(set));
      auto item = parse_value();
      if (!item) return std::nullopt;
      set.items.push_back(std::move(*item));
    }
    if (!consume('}')) return std::nullopt;
    return PyValue(std::move(set));
  }

  static void append_utf8(std::string& out, unsigned long cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::optional<PyValue> parse_string() {
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\n') return std::nullopt;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return std::nullopt;
      c = text_[pos_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '0':
          out += '\0';
          break;
        case '\\':
          out += '\\';
          break;
        case '\'':
          out += '\'';
          break;
        case '"':
          out += '"';
          break;
        case 'x':
        case 'u':
        case 'U': {
          const size_t len = c == 'x' ? 2 : c == 'u' ? 4 : 8;
          if (pos_ + len > text_.size()) return std::nullopt;
          const std::string hex(text_.substr(pos_, len));
          char* end = nullptr;
          const unsigned long cp = std::strtoul(hex.c_str(), &end, 16);
          if (end != hex.c_str() + hex.size()) return std::nullopt;
          append_utf8(out, cp);
          pos_ += len;
          break;
        }
        default:
          out += '\\';
          out += c;
      }
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return PyValue(std::move(out));
  }

  std::optional<PyValue> parse_number() {
    const size_t start = pos_;
    if (text_[pos_] == '-' || text_[pos_] == '+') ++pos_;
    bool is_float = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if ((c >= '0' && c <= '9') || c == '_') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        ++pos_;
        if ((c == 'e' || c == 'E') && pos_ < text_.size() &&
            (text_[pos_] == '-' || text_[pos_] == '+')) {
          ++pos_;
        }
      } else {
        break;
      }
    }
    const std::string_view token = text_.substr(start, pos_ - start);
    double value = 0;
    if (!py::parse_float(token, value)) return std::nullopt;
    if (is_float) return PyValue(value);
    std::string digits;
    for (const char c : token) {
      if (c != '_') digits += c;
    }
    char* end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(digits.c_str(), &end, 10);
    if (end != digits.c_str() + digits.size()) return std::nullopt;
    // Python keeps the exact value; an int outside int64 is not representable here, so the
    // literal is refused rather than read as a wrong number.
    if (errno == ERANGE) return std::nullopt;
    return PyValue(static_cast<std::int64_t>(parsed));
  }

  std::optional<PyValue> parse_value() {
    skip_space();
    if (pos_ >= text_.size() || depth_ > 64) return std::nullopt;
    const char c = text_[pos_];
    if (c == '(' || c == '[' || c == '{') {
      ++pos_;
      ++depth_;
      auto out = c == '('   ? parse_sequence(')', true)
                 : c == '[' ? parse_sequence(']', false)
                            : parse_dict_or_set();
      --depth_;
      return out;
    }
    if (c == '\'' || c == '"') return parse_string();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') return parse_number();
    for (const auto& [word, value] :
         {std::pair<std::string_view, int>{"True", 1}, {"False", 0}, {"None", -1}}) {
      if (text_.substr(pos_, word.size()) == word) {
        const size_t after = pos_ + word.size();
        if (after < text_.size() &&
            (std::isalnum(static_cast<unsigned char>(text_[after])) || text_[after] == '_')) {
          return std::nullopt;
        }
        pos_ = after;
        return value < 0 ? PyValue() : PyValue(value == 1);
      }
    }
    return std::nullopt;
  }
};

}  // namespace

std::optional<PyValue> parse_py_literal(std::string_view text) { return Parser(text).parse_all(); }

}  // namespace loupe::compute
