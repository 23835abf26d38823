#include "parallel_event_reader.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include "value_extent.hpp"

namespace loupe::core::trace {

namespace {

// A block grows past block_bytes until it holds a separator, up to this many times its size
// (and at least kMinBlockCap); then it is handed over as it is (its worker stops inside the cut
// element and the sequential reader takes over there).
constexpr std::size_t kMaxBlockGrowth = 16;
constexpr std::size_t kMinBlockCap = std::size_t{64} << 20;

}  // namespace

ParallelEventReader::ParallelEventReader(ByteSource& source, TraceModelBuilder& builder,
                                         ReadPosition& position, unsigned threads,
                                         std::size_t block_bytes)
    : source_(source),
      builder_(builder),
      position_(position),
      threads_(threads),
      block_bytes_(std::max<std::size_t>(block_bytes, 1)) {}

ParallelEventReader::~ParallelEventReader() { stop_workers(); }

void ParallelEventReader::stop_workers() {
  cancel_.store(true, std::memory_order_relaxed);
  for (InFlight& f : in_flight_) {
    if (f.result.valid()) f.result.wait();
  }
}

bool ParallelEventReader::pull() {
  if (eof_) return false;
  const std::string_view chunk = source_.next_chunk();
  if (chunk.empty()) {
    eof_ = true;
    return false;
  }
  // Room for a whole block at once: grown by doubling, the text was copied into fresh pages
  // two or three times per block (a small trace's load was mostly those copies and their page
  // faults). Untouched capacity costs no memory.
  if (pending_.capacity() < pending_.size() + chunk.size()) {
    pending_.reserve(std::max(pending_.size() + chunk.size(), block_bytes_ + chunk.size()));
  }
  pending_.append(chunk);
  return true;
}

std::string_view ParallelEventReader::rest() const {
  return sequential_ ? sequential_->rest() : std::string_view(rest_);
}

std::uint64_t ParallelEventReader::rest_offset() const {
  return sequential_ ? sequential_->rest_offset() : rest_offset_;
}

std::optional<LoadError> ParallelEventReader::run_sequential(std::string_view text,
                                                             std::uint64_t base, ArrayEntry entry,
                                                             std::uint64_t pause_after) {
  sequential_ = std::make_unique<EventArrayReader>(source_, builder_, position_);
  return sequential_->run(text, base, entry, pause_after);
}

// With pending_ starting at the array's first element: the bytes from the end of the first
// element up to and including the second's `{`.
std::optional<std::string_view> ParallelEventReader::find_separator() {
  const std::size_t cap = std::max(block_bytes_ * kMaxBlockGrowth, kMinBlockCap);
  std::size_t end = kValueIncomplete;
  while ((end = find_value_end(pending_, 0)) == kValueIncomplete) {
    if (pending_.size() > cap || !pull()) return std::nullopt;
  }
  std::size_t p = end;
  const auto skip = [&] {
    while (true) {
      while (p < pending_.size() && is_json_whitespace(pending_[p])) ++p;
      if (p < pending_.size() || !pull()) return p < pending_.size();
    }
  };
  if (!skip() || pending_[p] != ',') return std::nullopt;
  ++p;
  if (!skip() || pending_[p] != '{') return std::nullopt;
  return std::string_view(pending_.data() + end, p + 1 - end);
}

std::optional<EventBlock> ParallelEventReader::next_block() {
  while (pending_.size() < block_bytes_ && pull()) {
  }
  if (pending_.empty()) return std::nullopt;
  const std::size_t cap = std::max(block_bytes_ * kMaxBlockGrowth, kMinBlockCap);
  // The block ends at the last separator that starts by block_bytes_, else at the first one
  // after it (pending_ grows until one is read, up to kMaxBlockGrowth blocks).
  const std::size_t cut = [&] {
    const std::size_t before = pending_.rfind(separator_, block_bytes_);
    if (before != std::string::npos && before > 0) return before + separator_.size() - 1;
    std::size_t from = 1;
    while (true) {
      const std::size_t at = pending_.find(separator_, from);
      if (at != std::string::npos) return at + separator_.size() - 1;
      from =
          std::max<std::size_t>(1, pending_.size() - std::min(pending_.size(), separator_.size()));
      if (pending_.size() > cap || !pull()) return pending_.size();
    }
  }();
  EventBlock block;
  block.base = pending_base_;
  block.entry = launched_ == 0 ? ArrayEntry::kArrayStart : ArrayEntry::kAfterComma;
  std::string next;
  if (!spare_.empty()) {
    next = std::move(spare_.back());
    spare_.pop_back();
  }
  next.assign(pending_, cut, std::string::npos);
  block.text = std::move(pending_);
  block.text.resize(cut);
  pending_ = std::move(next);
  pending_base_ += cut;
  return block;
}

void ParallelEventReader::launch(EventBlock block) {
  ++launched_;
  in_flight_.push_back(InFlight{std::move(block), {}});
  InFlight& f = in_flight_.back();
  const std::size_t nesting = builder_.nesting();
  std::unique_ptr<TraceModel> model;
  if (spare_models_.empty()) {
    model = std::make_unique<TraceModel>();
  } else {
    model = std::move(spare_models_.back());
    spare_models_.pop_back();
  }
  try {
    f.result = std::async(std::launch::async,
                          [this, &block = f.block, nesting, model = std::move(model)]() mutable {
                            return parse_event_block(block, std::move(model), nesting, cancel_);
                          });
  } catch (const std::system_error&) {
    // No thread to be had (a process or thread limit): the block is parsed on this thread when
    // its result is asked for (the model given to the failed launch went with it).
    f.result = std::async(std::launch::deferred, [this, &block = f.block, nesting] {
      return parse_event_block(block, std::make_unique<TraceModel>(), nesting, cancel_);
    });
  }
}

std::optional<LoadError> ParallelEventReader::run(std::string_view initial, std::uint64_t base) {
  if (threads_ <= 1) return run_sequential(initial, base, ArrayEntry::kArrayStart);
  pending_.assign(initial);
  pending_base_ = base;
  // The array's first element (or its `]`, or whatever is there instead).
  std::size_t first = 0;
  while (true) {
    while (first < pending_.size() && is_json_whitespace(pending_[first])) ++first;
    if (first < pending_.size() || !pull()) break;
  }
  pending_.erase(0, first);
  pending_base_ += first;
  const auto sequential = [this] {
    return run_sequential(pending_, pending_base_, ArrayEntry::kArrayStart);
  };
  if (pending_.empty() || pending_[0] != '{') return sequential();
  const auto separator = find_separator();
  if (!separator) return sequential();
  separator_.assign(*separator);

  bool exhausted = false;
  while (true) {
    while (!exhausted && in_flight_.size() < threads_) {
      std::optional<EventBlock> block = next_block();
      if (!block) {
        exhausted = true;
        break;
      }
      if (launched_ == 0 && eof_ && pending_.empty()) {
        // The whole array fits in one block: no thread for it.
        return run_sequential(block->text, block->base, ArrayEntry::kArrayStart);
      }
      launch(std::move(*block));
    }
    if (in_flight_.empty()) {
      // Every block ended just after a `,` and the input ended: the sequential reader reports it.
      return run_sequential(pending_, pending_base_, ArrayEntry::kAfterComma);
    }
    InFlight& front = in_flight_.front();
    BlockParse parsed = front.result.get();
    builder_.append_block(*parsed.builder);
    ++parallel_blocks_;
    parsed.builder.reset();
    TraceModelBuilder::clear_for_reuse(*parsed.model);
    spare_models_.push_back(std::move(parsed.model));
    if (parsed.end == BlockEnd::kBoundary) {
      spare_.push_back(std::move(front.block.text));
      spare_.back().clear();
      in_flight_.pop_front();
      continue;
    }
    // The array ends in this block, or the guess failed here: everything after `stop`, read but
    // not (validly) parsed, goes to the `]`'s caller or to the sequential reader.
    stop_workers();
    const std::uint64_t at = front.block.base + parsed.stop;
    const std::uint64_t block_end = front.block.base + front.block.text.size();
    std::string text = front.block.text.substr(parsed.stop);
    for (std::size_t i = 1; i < in_flight_.size(); ++i) text += in_flight_[i].block.text;
    text += pending_;
    in_flight_.clear();
    pending_.clear();
    cancel_.store(false, std::memory_order_relaxed);
    if (parsed.end == BlockEnd::kArrayEnd) {
      rest_ = std::move(text);
      rest_offset_ = at;
      return std::nullopt;
    }
    // The sequential reader reads past this block's end (or reports the error exactly), then
    // the blocks start again from the element where it paused.
    auto err = run_sequential(text, at, parsed.resume, block_end);
    if (err || !sequential_->paused()) return err;
    pending_.assign(sequential_->rest());
    pending_base_ = sequential_->rest_offset();
    eof_ = eof_ || sequential_->at_eof();
    sequential_.reset();
    exhausted = false;
  }
}

}  // namespace loupe::core::trace
