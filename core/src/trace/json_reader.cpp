#include "loupe/core/trace/json_reader.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cstdio>

#include "chunk_stream.hpp"
#include "trace_model_builder.hpp"

namespace loupe::core::trace {

namespace {

constexpr unsigned kParseFlags = rapidjson::kParseNumbersAsStringsFlag |
                                 rapidjson::kParseNanAndInfFlag | rapidjson::kParseStopWhenDoneFlag;

// Counts JSON bytes and calls the progress callback about every 64 MiB.
class ProgressSource final : public ByteSource {
 public:
  ProgressSource(std::unique_ptr<ByteSource> inner, const LoadOptions& options)
      : inner_(std::move(inner)), options_(options) {}
  std::string_view next_chunk() override {
    const auto chunk = inner_->next_chunk();
    bytes_ += chunk.size();
    if (options_.progress && bytes_ >= next_report_) {
      options_.progress(bytes_, inner_->input_bytes_consumed());
      next_report_ = bytes_ + (64u << 20);
    }
    return chunk;
  }
  std::string error() const override { return inner_->error(); }
  std::uint64_t ignored_trailing_bytes() const override { return inner_->ignored_trailing_bytes(); }
  bool is_gzip() const override { return inner_->is_gzip(); }
  std::uint64_t input_bytes_consumed() const override { return inner_->input_bytes_consumed(); }
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<ByteSource> inner_;
  const LoadOptions& options_;
  std::uint64_t bytes_ = 0;
  std::uint64_t next_report_ = 64u << 20;
};

std::string describe_parse_error(rapidjson::ParseErrorCode code, char at, bool at_end) {
  using rapidjson::ParseErrorCode;
  if (at_end) {
    return std::string("unexpected end of input (truncated JSON?): ") +
           rapidjson::GetParseError_En(code);
  }
  const auto c = static_cast<unsigned char>(at);
  if (code == rapidjson::kParseErrorStringEscapeInvalid && c < 0x20) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "unescaped control character 0x%02X inside a string", c);
    return buf;
  }
  if (code == rapidjson::kParseErrorValueInvalid &&
      (at == 'n' || at == 'i' || at == 'N' || at == 'I' || at == 'a' || at == 'f' || at == 'e' ||
       at == 'u' || at == 't')) {
    return "invalid value (a bare nan/inf/infinity? only NaN, Infinity and -Infinity are accepted)";
  }
  return rapidjson::GetParseError_En(code);
}

LoadResult load_from(std::unique_ptr<ByteSource> raw, const LoadOptions& options) {
  LoadResult result;
  result.gzip = raw->is_gzip();
  if (options.read_ahead) raw = read_ahead(std::move(raw));
  ProgressSource source(std::move(raw), options);
  ChunkStream stream(source);
  TraceModelBuilder builder(result.model, [&stream] { return stream.offset(); });
  rapidjson::Reader reader;
  const rapidjson::ParseResult ok = reader.Parse<kParseFlags>(stream, builder);
  const std::string container_error = source.error();
  if (!ok) {
    const bool at_end = stream.at_end();
    LoadError err;
    err.offset = ok.Offset();
    if (!container_error.empty()) {
      err.message = container_error;
    } else if (ok.Code() == rapidjson::kParseErrorTermination) {
      err.message = builder.fatal_message();
    } else {
      err.message = describe_parse_error(ok.Code(), stream.Peek(), at_end);
    }
    result.error = err;
  } else if (!container_error.empty()) {
    result.error = LoadError{stream.offset(), container_error};
  } else if (!builder.saw_trace_events()) {
    result.error = LoadError{stream.offset(), "the top-level object has no traceEvents array"};
  } else {
    // Anything but whitespace after the top-level value is an error (not merely ignored).
    while (!stream.at_end()) {
      const char c = stream.Peek();
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        result.error = LoadError{stream.offset(), "unexpected data after the top-level JSON value"};
        break;
      }
      stream.Take();
    }
  }
  if (source.ignored_trailing_bytes() > 0) {
    result.model.diagnostics().warn(Warning::kTrailingGzipData, stream.offset(),
                                    std::to_string(source.ignored_trailing_bytes()) +
                                        " bytes after the last gzip member ignored");
  }
  result.json_bytes = source.bytes();
  result.input_bytes = source.input_bytes_consumed();
  return result;
}

}  // namespace

LoadResult load_trace(const std::filesystem::path& path, const LoadOptions& options) {
  return load_from(open_byte_source(path), options);
}

LoadResult load_trace_bytes(std::string bytes, const LoadOptions& options) {
  return load_from(memory_byte_source(std::move(bytes)), options);
}

}  // namespace loupe::core::trace
