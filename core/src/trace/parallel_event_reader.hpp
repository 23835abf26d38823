// The traceEvents array read on several threads (spec: docs/performance.md, "Parallel parse").
//
// The main thread reads the JSON text from the byte source and cuts it into blocks of about
// `block_bytes` at guessed element boundaries: the separator between the array's first two
// elements (`,\n    {` in Kineto's indented output, `,\n{` in one-event-per-line files, `, {` in
// one-line files) is looked for, and a block ends just before its `{`. Each block is parsed on a
// worker thread into a model of its own (event_block_parser.hpp). The main thread then appends
// the blocks' models in file order (TraceModelBuilder::append_block). A block counts only when
// the block before it ended exactly at its start after a `,`, which proves the guess. At the first
// block that does not (a separator inside an element, a syntax error, a truncated file), the
// sequential EventArrayReader reads on from where the last good element ended, past that block's
// end (reporting any error exactly), and the blocks start again from the element where it paused.
// So the model, warnings and errors are always exactly those of the sequential reader; only speed
// depends on the guesses. Inputs that fit in one block are read sequentially.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "event_array_reader.hpp"
#include "event_block_parser.hpp"
#include "loupe/core/trace/byte_source.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "read_position.hpp"
#include "trace_model_builder.hpp"

namespace loupe::core::trace {

class ParallelEventReader {
 public:
  // `threads` workers at most (1: sequential), blocks of about `block_bytes` of JSON text.
  ParallelEventReader(ByteSource& source, TraceModelBuilder& builder, ReadPosition& position,
                      unsigned threads, std::size_t block_bytes);
  ~ParallelEventReader();
  ParallelEventReader(const ParallelEventReader&) = delete;
  ParallelEventReader& operator=(const ParallelEventReader&) = delete;

  // As EventArrayReader::run: `initial` holds the bytes just after the `[`, at offset `base`.
  std::optional<LoadError> run(std::string_view initial, std::uint64_t base);
  std::string_view rest() const;
  std::uint64_t rest_offset() const;
  // Blocks appended from workers (0 when the array was read sequentially): for tests.
  std::size_t parallel_blocks() const { return parallel_blocks_; }

 private:
  struct InFlight {
    EventBlock block;
    std::future<BlockParse> result;
  };

  bool pull();  // appends the next chunk to pending_; false at the end of the input
  std::optional<std::string_view> find_separator();
  std::optional<EventBlock> next_block();
  void launch(EventBlock block);
  void stop_workers();
  std::optional<LoadError> run_sequential(std::string_view text, std::uint64_t base,
                                          ArrayEntry entry, std::uint64_t pause_after = UINT64_MAX);

  ByteSource& source_;
  TraceModelBuilder& builder_;
  ReadPosition& position_;
  unsigned threads_;
  std::size_t block_bytes_;

  std::string pending_;             // read, not yet in a block
  std::uint64_t pending_base_ = 0;  // JSON offset of pending_[0]
  bool eof_ = false;
  std::string separator_;  // the text between the first two elements, up to the second's `{`
  std::atomic<bool> cancel_{false};
  std::deque<InFlight> in_flight_;
  std::size_t launched_ = 0;
  std::size_t parallel_blocks_ = 0;
  std::vector<std::string> spare_;  // emptied block buffers, reused for pending_
  std::vector<std::unique_ptr<TraceModel>> spare_models_;  // appended block models, emptied

  std::unique_ptr<EventArrayReader> sequential_;  // when the sequential reader took over
  std::string rest_;                              // else: what follows the `]`
  std::uint64_t rest_offset_ = 0;
};

}  // namespace loupe::core::trace
