// One block of the traceEvents array, parsed on a worker thread into a model of its own (the
// parallel parse, parallel_event_reader.hpp). The block is speculative: it starts where the
// reader guessed an element starts. The worker reads whole elements with the same tokenizer and
// RapidJSON fallback as the sequential reader and stops, without guessing, at the first thing it
// cannot finish inside the block; the main thread then decides, in file order, what to keep.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "event_array_reader.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "read_position.hpp"
#include "trace_model_builder.hpp"

namespace loupe::core::trace {

struct EventBlock {
  std::string text;                            // starts at an element's first byte
  std::uint64_t base = 0;                      // JSON offset of text[0]
  ArrayEntry entry = ArrayEntry::kAfterComma;  // kArrayStart for the array's first element
};

enum class BlockEnd : std::uint8_t {
  kBoundary,  // every element read, and the block ends just after a `,` (and whitespace)
  kArrayEnd,  // the array's `]` was read; `stop` is just after it
  kStopped,   // could not go on at `stop` (state `resume`): the sequential reader takes over
};

struct BlockParse {
  // The block's model and the builder that filled it (the builder refers to both).
  std::unique_ptr<TraceModel> model;
  std::unique_ptr<ReadPosition> position;
  std::unique_ptr<TraceModelBuilder> builder;
  BlockEnd end = BlockEnd::kStopped;
  std::size_t stop = 0;  // index into the block's text
  ArrayEntry resume = ArrayEntry::kAfterComma;
};

// Parses `block` into `model` (empty) with a builder at nesting depth `nesting` (the main
// builder's). Stops early, as kStopped at the next element, once `cancel` is set.
BlockParse parse_event_block(const EventBlock& block, std::unique_ptr<TraceModel> model,
                             std::size_t nesting, const std::atomic<bool>& cancel);

}  // namespace loupe::core::trace
