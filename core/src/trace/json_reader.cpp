#include "loupe/core/trace/json_reader.hpp"

#include <rapidjson/reader.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "chunk_stream.hpp"
#include "loupe/core/trace/input_format.hpp"
#include "loupe/core/trace/op_name_normalization.hpp"
#include "parallel_event_reader.hpp"
#include "parse_error_text.hpp"
#include "read_position.hpp"
#include "trace_model_builder.hpp"

namespace loupe::core::trace {

namespace {

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

// Yields `prefix` first, then the chunks of `inner`: resumes RapidJSON after the fast path.
class SpliceSource final : public ByteSource {
 public:
  SpliceSource(std::string prefix, ByteSource& inner) : prefix_(std::move(prefix)), inner_(inner) {}
  std::string_view next_chunk() override {
    if (!prefix_done_) {
      prefix_done_ = true;
      if (!prefix_.empty()) return prefix_;
    }
    return inner_.next_chunk();
  }
  std::string error() const override { return inner_.error(); }
  std::uint64_t ignored_trailing_bytes() const override { return inner_.ignored_trailing_bytes(); }
  bool is_gzip() const override { return inner_.is_gzip(); }
  std::uint64_t input_bytes_consumed() const override { return inner_.input_bytes_consumed(); }

 private:
  std::string prefix_;
  ByteSource& inner_;
  bool prefix_done_ = false;
};

// The synthetic start of an object with one member, put in front of the bytes after the
// traceEvents array so that RapidJSON resumes in the state "after a member value".
constexpr std::string_view kResumeObject = "{\"\":0";

unsigned parse_threads(const LoadOptions& options) {
  if (options.parse_threads != 0) return options.parse_threads;
  // One block more than cores: while the main thread appends a finished block, every core still
  // has one to parse (measured on 2 cores: 376 vs 314 MB/s; docs/performance.md).
  const unsigned cores = std::thread::hardware_concurrency();
  return cores <= 1 ? 1u : std::min(cores + 1, 9u);
}

// The load's error, by one rule whichever reader parsed traceEvents and however far it read
// ahead (docs/performance.md, "Errors of a .json.gz"): a gzip container is read to its end once the
// JSON text has ended or failed, so its own error (truncated, corrupt data, CRC or length mismatch)
// is always known, and it wins over the JSON error it may have caused. The offset stays the JSON
// error's (the first byte that could not be used), else it is where the inflated text ended; a
// JSON error before that end is kept in the message.
std::optional<LoadError> settle_error(std::optional<LoadError> json_error, ProgressSource& source) {
  if (source.is_gzip()) {
    while (!source.next_chunk().empty()) {
    }
  }
  const std::string container_error = source.error();
  if (container_error.empty()) return json_error;
  const std::uint64_t text_end = source.bytes();
  if (!json_error) return LoadError{text_end, container_error};
  LoadError error{json_error->offset, container_error};
  if (json_error->offset < text_end) {
    error.message += "; the JSON text inflated before it is invalid at byte " +
                     std::to_string(json_error->offset) + " (" + json_error->message + ")";
  }
  return error;
}

LoadResult load_from(std::unique_ptr<ByteSource> raw, const LoadOptions& options) {
  LoadResult result;
  result.gzip = raw->is_gzip();
  if (options.read_ahead) raw = read_ahead(std::move(raw));
  ProgressSource source(std::move(raw), options);
  ReadPosition position;
  TraceModelBuilder builder(result.model, [&position] { return position.now(); });
  builder.set_pause_at_events(true);
  ParallelEventReader events(source, builder, position, parse_threads(options),
                             options.parse_block_bytes);

  std::unique_ptr<SpliceSource> splice;
  auto stream = std::make_unique<ChunkStream>(source);
  position.chunk = stream.get();
  bool parse = true;  // false once the top-level value is complete (top-level array)
  std::uint64_t end_offset = 0;
  std::optional<LoadError> json_error;
  while (true) {
    rapidjson::ParseResult ok;
    if (parse) {
      rapidjson::Reader reader;
      ok = reader.Parse<kTraceParseFlags>(*stream, builder);
    }
    if (!ok && ok.Code() == rapidjson::kParseErrorTermination && builder.take_pause()) {
      // The traceEvents array: its elements go through the fast path.
      const std::string_view initial = stream->remaining();
      const std::uint64_t base = stream->offset();
      auto err = events.run(initial, base);
      position.chunk = nullptr;
      if (err) {
        json_error = err;
        end_offset = err->offset;
        break;
      }
      position.token = events.rest_offset();
      builder.EndArray(0);
      std::string prefix;
      std::uint64_t prefix_offset = events.rest_offset();
      parse = !builder.top_is_array();
      if (parse) {
        prefix.assign(kResumeObject);
        prefix_offset -= kResumeObject.size();
        builder.resume_top_object();
      }
      prefix.append(events.rest());
      stream.reset();
      splice = std::make_unique<SpliceSource>(std::move(prefix), source);
      stream = std::make_unique<ChunkStream>(*splice, prefix_offset);
      position.chunk = stream.get();
      continue;
    }
    if (!ok) {
      const bool at_end = stream->at_end();
      LoadError err;
      err.offset = ok.Offset();
      if (ok.Code() == rapidjson::kParseErrorTermination) {
        err.message = builder.fatal_message();
      } else {
        err.message = describe_parse_error(ok.Code(), stream->Peek(), at_end);
      }
      json_error = err;
    } else if (!builder.saw_trace_events()) {
      json_error = LoadError{
          stream->offset(),
          "the top-level object has no traceEvents array: not a PyTorch profiler (Kineto) "
          "trace"};
    } else {
      // Anything but whitespace after the top-level value is an error (not merely ignored).
      while (!stream->at_end()) {
        const char c = stream->Peek();
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
          json_error =
              LoadError{stream->offset(), "unexpected data after the top-level JSON value"};
          break;
        }
        stream->Take();
      }
    }
    end_offset = stream->offset();
    break;
  }
  stream.reset();  // its view of the last chunk ends with the next read
  result.error = settle_error(std::move(json_error), source);
  if (source.ignored_trailing_bytes() > 0) {
    result.model.diagnostics().warn(Warning::kTrailingGzipData, end_offset,
                                    std::to_string(source.ignored_trailing_bytes()) +
                                        " bytes after the last gzip member ignored");
  }
  // TraceLens's tree renames SGLang's per-call-site op names before any table.
  normalize_op_names(result.model);
  result.parallel_blocks = events.parallel_blocks();
  result.json_bytes = source.bytes();
  result.input_bytes = source.input_bytes_consumed();
  return result;
}

// A LoadResult whose error names the format when `info` is not a trace Loupe reads.
std::optional<LoadResult> refuse_unsupported(const InputFormatInfo& info) {
  if (info.readable()) return std::nullopt;
  LoadResult result;
  result.error = LoadError{0, unsupported_input_message(info), true};
  return result;
}

}  // namespace

LoadResult load_trace(const std::filesystem::path& path, const LoadOptions& options) {
  if (auto refused = refuse_unsupported(identify_input_file(path))) return std::move(*refused);
  return load_from(open_byte_source(path, options.chunk_bytes), options);
}

LoadResult load_trace_bytes(std::string bytes, const LoadOptions& options) {
  {
    const auto sniff = memory_byte_source(bytes.substr(0, kInputSniffBytes), 64u << 10);
    if (auto refused = refuse_unsupported(identify_input_source(*sniff, {}))) {
      return std::move(*refused);
    }
  }
  return load_from(memory_byte_source(std::move(bytes), options.chunk_bytes), options);
}

}  // namespace loupe::core::trace
