#include "event_block_parser.hpp"

#include <rapidjson/reader.h>

#include <algorithm>
#include <array>
#include <iterator>

#include "span_stream.hpp"
#include "value_extent.hpp"
#include "value_tokenizer.hpp"

namespace loupe::core::trace {

namespace {

constexpr std::size_t kWarningKinds = static_cast<std::size_t>(Warning::kCount);

// Reads the element at `pos` into the builder; false when it cannot be read inside the block
// (it runs past the block's end, is not valid JSON, or the builder stopped).
bool read_element(std::string_view text, std::size_t& pos, ValueTokenizer& tokenizer,
                  TraceModelBuilder& builder, ReadPosition& position, std::uint64_t base) {
  const char* origin = text.data();
  const TokenizeStatus st = tokenizer.tokenize(origin + pos, origin + text.size());
  if (st == TokenizeStatus::kOk) {
    const bool ok = replay_tokens(tokenizer.tokens(), builder, [&](const char* after) {
      position.token = base + static_cast<std::uint64_t>(after - origin);
    });
    if (!ok) return false;
    pos = static_cast<std::size_t>(tokenizer.value_end() - origin);
    return true;
  }
  if (st == TokenizeStatus::kIncomplete) return false;
  // A form the tokenizer leaves to RapidJSON, re-parsed over the element's exact extent.
  if (find_value_end(text, pos) == kValueIncomplete) return false;
  SpanStream span(origin + pos, origin + text.size());
  position.span = &span;
  position.span_base = base + pos;
  rapidjson::Reader reader;
  const rapidjson::ParseResult ok = reader.Parse<kTraceParseFlags>(span, builder);
  position.span = nullptr;
  if (!ok) return false;
  pos += span.Tell();
  return true;
}

}  // namespace

BlockParse parse_event_block(const EventBlock& block, std::unique_ptr<TraceModel> model,
                             std::size_t nesting, const std::atomic<bool>& cancel) {
  BlockParse out;
  out.model = std::move(model);
  out.position = std::make_unique<ReadPosition>();
  ReadPosition& position = *out.position;
  out.builder =
      std::make_unique<TraceModelBuilder>(*out.model, [&position] { return position.now(); });
  TraceModelBuilder& builder = *out.builder;
  builder.start_in_event_array(nesting);

  const std::string_view text = block.text;
  ValueTokenizer tokenizer;
  std::size_t pos = 0;
  ArrayEntry entry = block.entry;
  const auto stop = [&out](std::size_t at, ArrayEntry resume) {
    out.end = BlockEnd::kStopped;
    out.stop = at;
    out.resume = resume;
    return std::move(out);
  };
  while (true) {
    // At an element's first byte (the block starts at one; later ones follow a `,`).
    if (cancel.load(std::memory_order_relaxed) || pos >= text.size() || text[pos] == ']') {
      return stop(pos, entry);
    }
    const std::size_t element = pos;
    // An element that fails part-way may have warned already; the sequential reader reads it
    // again and warns again, so its warnings are taken back here.
    TraceDiagnostics& diagnostics = out.model->diagnostics();
    const std::array<std::uint64_t, kWarningKinds> warned = std::to_array(diagnostics.warnings);
    const std::size_t samples = diagnostics.samples.size();
    if (!read_element(text, pos, tokenizer, builder, position, block.base)) {
      std::copy(warned.begin(), warned.end(), std::begin(diagnostics.warnings));
      diagnostics.samples.resize(samples);
      diagnostics.sample_kinds.resize(samples);
      return stop(element, entry);
    }
    const std::size_t after_element = pos;
    while (pos < text.size() && is_json_whitespace(text[pos])) ++pos;
    if (pos < text.size() && text[pos] == ']') {
      out.end = BlockEnd::kArrayEnd;
      out.stop = pos + 1;
      return out;
    }
    if (pos >= text.size() || text[pos] != ',')
      return stop(after_element, ArrayEntry::kAfterElement);
    ++pos;
    while (pos < text.size() && is_json_whitespace(text[pos])) ++pos;
    if (pos == text.size()) {
      out.end = BlockEnd::kBoundary;
      out.stop = pos;
      return out;
    }
    entry = ArrayEntry::kAfterComma;
  }
}

}  // namespace loupe::core::trace
