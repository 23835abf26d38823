// JSON args -> Json, a small ast.literal_eval, and the §1.6 shape key.
#include "input_dims.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>

#include "loupe/python_format.hpp"

namespace loupe::core::prepare::fusion {
namespace {

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : text_(text) {}

  std::optional<PyValue> parse() {
    auto v = value();
    skip_ws();
    if (!v || pos_ != text_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::optional<PyValue> value() {
    if (++depth_ > 200) return std::nullopt;
    auto v = value_inner();
    --depth_;
    return v;
  }

  std::optional<PyValue> value_inner() {
    skip_ws();
    if (pos_ >= text_.size()) return std::nullopt;
    const char c = text_[pos_];
    if (c == '(') return sequence(')', PyValue::Kind::kTuple);
    if (c == '[') return sequence(']', PyValue::Kind::kList);
    if (c == '{') return dict_or_set();
    if (c == '\'' || c == '"') return string();
    if (c == '-' || c == '+' || c == '.' || std::isdigit(static_cast<unsigned char>(c)) != 0) {
      return number();
    }
    return keyword();
  }

  std::optional<PyValue> sequence(char close, PyValue::Kind kind) {
    ++pos_;
    PyValue out;
    out.kind = kind;
    bool trailing_comma = false;
    while (true) {
      if (eat(close)) break;
      auto item = value();
      if (!item) return std::nullopt;
      out.items.push_back(std::move(*item));
      trailing_comma = eat(',');
      if (!trailing_comma) {
        if (!eat(close)) return std::nullopt;
        break;
      }
    }
    // "(x)" is just x.
    if (kind == PyValue::Kind::kTuple && out.items.size() == 1 && !trailing_comma) {
      return std::move(out.items.front());
    }
    return out;
  }

  std::optional<PyValue> dict_or_set() {
    ++pos_;
    PyValue out;
    out.kind = PyValue::Kind::kDict;
    if (eat('}')) return out;
    bool first = true;
    while (true) {
      auto key = value();
      if (!key) return std::nullopt;
      if (first) {
        first = false;
        if (!eat(':'))
          out.kind = PyValue::Kind::kSet;
        else if (auto v = value())
          out.members.emplace_back(std::move(*key), std::move(*v));
        else
          return std::nullopt;
        if (out.kind == PyValue::Kind::kSet) out.items.push_back(std::move(*key));
      } else if (out.kind == PyValue::Kind::kDict) {
        if (!eat(':')) return std::nullopt;
        auto v = value();
        if (!v) return std::nullopt;
        out.members.emplace_back(std::move(*key), std::move(*v));
      } else {
        out.items.push_back(std::move(*key));
      }
      if (eat('}')) return out;
      if (!eat(',')) return std::nullopt;
      if (eat('}')) return out;
    }
  }

  std::optional<PyValue> string() {
    const char quote = text_[pos_++];
    PyValue out;
    out.kind = PyValue::Kind::kStr;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        const char e = text_[pos_++];
        switch (e) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case '0':
            c = '\0';
            break;
          default:
            c = e;
            break;
        }
      }
      out.s.push_back(c);
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return out;
  }

  std::optional<PyValue> number() {
    const std::size_t start = pos_;
    if (text_[pos_] == '-' || text_[pos_] == '+') ++pos_;
    bool is_float = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_') {
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
    std::string digits(text_.substr(start, pos_ - start));
    std::erase(digits, '_');
    if (!digits.empty() && digits.front() == '+') digits.erase(0, 1);
    PyValue out;
    if (is_float) {
      char* end = nullptr;
      out.kind = PyValue::Kind::kFloat;
      out.f = std::strtod(digits.c_str(), &end);
      if (end != digits.c_str() + digits.size()) return std::nullopt;
    } else {
      out.kind = PyValue::Kind::kInt;
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), out.i);
      if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return std::nullopt;
    }
    return out;
  }

  std::optional<PyValue> keyword() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) != 0 || text_[pos_] == '_')) {
      ++pos_;
    }
    const std::string_view word = text_.substr(start, pos_ - start);
    PyValue out;
    if (word == "None") return out;
    if (word == "True" || word == "False") {
      out.kind = PyValue::Kind::kBool;
      out.b = word == "True";
      return out;
    }
    return std::nullopt;  // names and calls (np.float64(...)) are not literals
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

PyValue from_json(const Json& j) {
  PyValue out;
  if (j.is_bool()) {
    out.kind = PyValue::Kind::kBool;
    out.b = j.as_bool();
  } else if (j.is_int()) {
    out.kind = PyValue::Kind::kInt;
    out.i = j.as_int();
  } else if (j.is_double()) {
    out.kind = PyValue::Kind::kFloat;
    out.f = j.as_double();
  } else if (j.is_string()) {
    out.kind = PyValue::Kind::kStr;
    out.s = j.as_string();
  } else if (j.is_array()) {
    out.kind = PyValue::Kind::kList;
    for (const auto& item : j.as_array()) out.items.push_back(from_json(item));
  } else if (j.is_object()) {
    out.kind = PyValue::Kind::kDict;
    for (const auto& [k, v] : j.as_object()) {
      PyValue key;
      key.kind = PyValue::Kind::kStr;
      key.s = k;
      out.members.emplace_back(std::move(key), from_json(v));
    }
  }
  return out;
}

void render_key(const PyValue& v, std::string& out) {
  switch (v.kind) {
    case PyValue::Kind::kNone:
      out += "None";
      break;
    case PyValue::Kind::kBool:
      out += v.b ? "True" : "False";
      break;
    case PyValue::Kind::kInt:
      out += std::to_string(v.i);
      break;
    case PyValue::Kind::kFloat:
      out += loupe::py::float_repr(v.f);
      break;
    case PyValue::Kind::kStr:
      out += "'" + v.s + "'";
      break;
    case PyValue::Kind::kList:
    case PyValue::Kind::kTuple:
    case PyValue::Kind::kSet:
      out.push_back('(');
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) out.push_back(',');
        render_key(v.items[i], out);
      }
      out.push_back(')');
      break;
    case PyValue::Kind::kDict:
      out.push_back('{');
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        if (i > 0) out.push_back(',');
        render_key(v.members[i].first, out);
        out.push_back(':');
        render_key(v.members[i].second, out);
      }
      out.push_back('}');
      break;
  }
}

std::optional<std::string> shape_key_of(const PyValue& v) {
  if (!v.is_sequence() || v.items.empty()) return std::nullopt;
  const PyValue& first = v.items.front();
  if (!first.is_sequence()) return std::nullopt;
  std::string key;
  render_key(first, key);
  return key;
}

}  // namespace

bool PyValue::truthy() const {
  switch (kind) {
    case Kind::kNone:
      return false;
    case Kind::kBool:
      return b;
    case Kind::kInt:
      return i != 0;
    case Kind::kFloat:
      return f != 0.0;
    case Kind::kStr:
      return !s.empty();
    case Kind::kDict:
      return !members.empty();
    default:
      return !items.empty();
  }
}

const PyValue* PyValue::get(std::string_view key) const {
  for (const auto& [k, v] : members) {
    if (k.kind == Kind::kStr && k.s == key) return &v;
  }
  return nullptr;
}

std::optional<PyValue> parse_python_literal(std::string_view text) {
  return LiteralParser(text).parse();
}

std::optional<std::string> first_shape_key(std::string_view literal_text) {
  const auto v = parse_python_literal(literal_text);
  if (!v) return std::nullopt;
  return shape_key_of(*v);
}

std::optional<std::string> first_shape_key(const Json& input_dims) {
  if (input_dims.is_string()) return first_shape_key(std::string_view(input_dims.as_string()));
  return shape_key_of(from_json(input_dims));
}

}  // namespace loupe::core::prepare::fusion
