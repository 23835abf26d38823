#include "shape_key.hpp"

#include <cmath>
#include <memory>
#include <vector>

#include "loupe/python_format.hpp"

namespace loupe::fusion {

namespace {

// A parsed Python literal, reduced to what a shape key needs.
struct Node {
  enum class Kind { Sequence, Number, String, None, Other } kind = Kind::Other;
  std::string atom;  // canonical text of a Number / String / Other
  std::vector<Node> items;
};

// Canonical text: sequences as "(a,b)" whatever their brackets; numbers so that values Python
// hashes equal (2, 2.0, True) give the same text.
std::string canonical(const Node& node) {
  if (node.kind != Node::Kind::Sequence) return node.atom;
  std::string out = "(";
  for (size_t i = 0; i < node.items.size(); ++i) {
    if (i > 0) out += ",";
    out += canonical(node.items[i]);
  }
  return out + ")";
}

std::string number_atom(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18) {
    return std::to_string(static_cast<long long>(value));
  }
  return py::float_repr(value);
}

// A small recursive-descent reader for the literals found in "Input Dims" cells: tuples,
// lists, numbers, quoted strings, None/True/False. Anything else fails (nullopt).
class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : text_(text) {}

  std::optional<Node> read_all() {
    auto node = read_value(0);
    skip_space();
    if (!node || pos_ != text_.size()) return std::nullopt;
    return node;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  std::optional<Node> read_value(int depth) {
    if (depth > 64) return std::nullopt;
    skip_space();
    if (pos_ >= text_.size()) return std::nullopt;
    const char c = text_[pos_];
    if (c == '(' || c == '[') return read_sequence(c == '(' ? ')' : ']', depth);
    if (c == '\'' || c == '"') return read_string(c);
    return read_word();
  }

  std::optional<Node> read_sequence(char close, int depth) {
    ++pos_;  // opening bracket
    Node node;
    node.kind = Node::Kind::Sequence;
    bool saw_comma = false;
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) return std::nullopt;
      if (text_[pos_] == close) {
        ++pos_;
        break;
      }
      auto item = read_value(depth + 1);
      if (!item) return std::nullopt;
      node.items.push_back(std::move(*item));
      skip_space();
      if (pos_ >= text_.size()) return std::nullopt;
      if (text_[pos_] == ',') {
        ++pos_;
        saw_comma = true;
        continue;
      }
      if (text_[pos_] != close) return std::nullopt;
    }
    // "(x)" is just x in Python, not a tuple.
    if (close == ')' && node.items.size() == 1 && !saw_comma) return node.items.front();
    return node;
  }

  std::optional<Node> read_string(char quote) {
    ++pos_;
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      value.push_back(text_[pos_++]);
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    Node node;
    node.kind = Node::Kind::String;
    node.atom = "'" + value + "'";
    return node;
  }

  std::optional<Node> read_word() {
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ',' || c == ')' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        break;
      }
      ++pos_;
    }
    const std::string_view word = text_.substr(start, pos_ - start);
    Node node;
    if (word == "None") {
      node.kind = Node::Kind::None;
      node.atom = "None";
      return node;
    }
    if (word == "True" || word == "False") {
      node.kind = Node::Kind::Number;
      node.atom.assign(
          1, word == "True"
                 ? '1'
                 : '0');  // assign(): GCC 12 -Wrestrict false positive on operator=(const char*)
      return node;
    }
    // Python literals: no nan/inf words, no '_'-free restrictions needed for shapes.
    if (word.empty() || word.find_first_of("0123456789") == std::string_view::npos) {
      return std::nullopt;
    }
    double value = 0.0;
    if (!py::parse_float(word, value)) return std::nullopt;
    node.kind = Node::Kind::Number;
    node.atom = number_atom(value);
    return node;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

Node node_from_json(const Json& value) {
  Node node;
  if (value.is_array()) {
    node.kind = Node::Kind::Sequence;
    for (const auto& item : value.as_array()) node.items.push_back(node_from_json(item));
  } else if (value.is_int()) {
    node.kind = Node::Kind::Number;
    node.atom = std::to_string(value.as_int());
  } else if (value.is_double()) {
    node.kind = Node::Kind::Number;
    node.atom = number_atom(value.as_double());
  } else if (value.is_bool()) {
    node.kind = Node::Kind::Number;
    node.atom.assign(1, value.as_bool() ? '1' : '0');
  } else if (value.is_string()) {
    node.kind = Node::Kind::String;
    node.atom = "'" + value.as_string() + "'";
  } else if (value.is_null()) {
    node.kind = Node::Kind::None;
    node.atom = "None";
  } else {
    node.kind = Node::Kind::Other;
    node.atom = "{}";
  }
  return node;
}

ShapeKey first_element_key(const Node& root) {
  if (root.kind != Node::Kind::Sequence || root.items.empty()) return std::nullopt;
  const Node& first = root.items.front();
  if (first.kind != Node::Kind::Sequence) return std::nullopt;
  return canonical(first);
}

}  // namespace

ShapeKey shape_key_from_literal(std::string_view text) {
  auto node = LiteralReader(text).read_all();
  if (!node) return std::nullopt;
  return first_element_key(*node);
}

ShapeKey shape_key_from_json(const Json& input_dims) {
  if (input_dims.is_null()) return std::nullopt;
  if (input_dims.is_string()) {
    if (input_dims.as_string().empty()) return std::nullopt;
    return shape_key_from_literal(input_dims.as_string());
  }
  if (input_dims.is_array()) {
    if (input_dims.as_array().empty()) return std::nullopt;
    return first_element_key(node_from_json(input_dims));
  }
  // Numbers, booleans and objects are never a sequence whose first element is a shape.
  return std::nullopt;
}

}  // namespace loupe::fusion
