// `boop synth --record` (see SynthRecorder.hpp).
#include "backend/jack/SynthRecorder.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <new>

#include "io/AtomicFile.hpp"

namespace boop {

namespace {

bool endsWith(const std::string& s, const char* suffix) {
    const std::string tail(suffix);
    if (s.size() < tail.size()) return false;
    for (size_t i = 0; i < tail.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - tail.size() + i])) != tail[i]) return false;
    return true;
}

void putBig(std::vector<uint8_t>& out, uint32_t value, int bytes) {
    for (int b = bytes - 1; b >= 0; --b) out.push_back(static_cast<uint8_t>(value >> (8 * b)));
}

void putVarLen(std::vector<uint8_t>& out, uint32_t value) {
    uint8_t groups[5];
    int n = 0;
    do {
        groups[n++] = static_cast<uint8_t>(value & 0x7F);
        value >>= 7;
    } while (value != 0);
    while (n-- > 0) out.push_back(static_cast<uint8_t>(groups[n] | (n > 0 ? 0x80 : 0)));
}

constexpr float kSilence[512] = {};

int dataBytes(uint8_t status) { return (status & 0xF0) == 0xC0 || (status & 0xF0) == 0xD0 ? 1 : 2; }

}  // namespace

SynthRecorder::~SynthRecorder() {
    stopping_.store(true, std::memory_order_release);
    if (writer_.joinable()) writer_.join();
    if (audio_ && !finished_) audio_->abort();
}

boop_status SynthRecorder::open(const std::string& path, double sampleRate, std::unique_ptr<SynthRecorder>& out,
                                std::string& why) {
    if (!(endsWith(path, ".wav") || endsWith(path, ".flac") || endsWith(path, ".ogg") || endsWith(path, ".mid"))) {
        why = "expected a name ending in .wav, .flac, .ogg or .mid";
        return BOOP_ERROR_INVALID_ARGUMENT;
    }
    std::unique_ptr<SynthRecorder> r(new (std::nothrow) SynthRecorder);
    if (!r) return BOOP_ERROR_OUT_OF_MEMORY;
    r->rate_ = sampleRate;
    r->path_ = path;
    try {
        // Made now, so that a folder that cannot take the file fails before anything plays, and
        // says the system's reason.
        AtomicFile probe;
        if (probe.open(path, 0) != BOOP_OK) {
            why = probe.error();
            return BOOP_ERROR_CANNOT_CREATE;
        }
        probe.abort();
        if (endsWith(path, ".mid")) {
            r->midi_ = true;
            r->events_ = std::make_unique<LockFreeQueue<MidiLogEntry>>(16384);
            r->collected_.reserve(16384);
        } else {
            const boop_sample_format format = endsWith(path, ".flac") ? BOOP_SAMPLE_INT16 : BOOP_SAMPLE_FLOAT32;
            const boop_status s = AudioFileWriter::open(path, sampleRate, kChannels, format, 0, r->audio_);
            if (s != BOOP_OK) {
                why = "libsndfile cannot write this format at " + std::to_string(static_cast<long>(sampleRate)) + " Hz";
                return s;
            }
            // Four seconds of slack: the writer thread wakes every 20 ms and libsndfile's own I/O
            // thread takes the disk's time.
            r->ring_ = std::make_unique<SampleRing>(static_cast<std::size_t>(sampleRate * 4.0) * kChannels);
            r->chunk_.assign(r->ring_->capacity(), 0.0f);
        }
        r->writer_ = std::thread([p = r.get()] { p->drainLoop(); });
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    out = std::move(r);
    return BOOP_OK;
}

void SynthRecorder::cycle(uint64_t frame, uint32_t frames) BOOP_RT {
    if (!begun_.load(std::memory_order_relaxed)) {
        startFrame_.store(frame, std::memory_order_relaxed);
        begun_.store(true, std::memory_order_release);
    } else if (frame > nextFrame_) {
        // A gap longer than the ring can take is cut to what fits (and counted as dropped).
        uint64_t gap = std::min<uint64_t>(frame - nextFrame_, ring_ ? ring_->capacity() / kChannels : 0);
        while (gap > 0) {
            const auto n = static_cast<uint32_t>(std::min<uint64_t>(gap, 512 / kChannels));
            pushAudio(kSilence, n);
            gap -= n;
        }
    }
    nextFrame_ = frame + frames;
}

void SynthRecorder::pushAudio(const float* interleaved, uint32_t frames) BOOP_RT {
    if (!ring_) return;
    const std::size_t n = std::size_t(frames) * kChannels;
    const std::size_t written = ring_->write(interleaved, n);
    if (written < n) dropped_.fetch_add((n - written) / kChannels, std::memory_order_relaxed);
}

void SynthRecorder::pushEvent(const MidiLogEntry& entry) BOOP_RT {
    if (events_ && !events_->tryPush(entry)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

bool SynthRecorder::drainOnce() noexcept {
    bool moved = false;
    if (ring_) {
        // Whole frames only: the audio thread writes two floats a frame, but a read can catch a
        // frame half-written between its two memcpy calls of a wrap.
        const std::size_t n = ring_->available() / kChannels * kChannels;
        if (n > 0) {
            ring_->read(chunk_.data(), n, nullptr);
            if (writeStatus_ == BOOP_OK) writeStatus_ = audio_->write(chunk_.data(), n / kChannels);
            moved = true;
        }
    }
    if (events_) {
        MidiLogEntry e;
        while (events_->tryPop(e)) {
            try {
                collected_.push_back(e);
            } catch (...) {
                writeStatus_ = BOOP_ERROR_OUT_OF_MEMORY;
            }
            moved = true;
        }
    }
    return moved;
}

void SynthRecorder::drainLoop() noexcept {
    while (!stopping_.load(std::memory_order_acquire)) {
        if (!drainOnce()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    while (drainOnce()) {}
}

boop_status SynthRecorder::finish() {
    if (finished_) return BOOP_OK;
    finished_ = true;
    stopping_.store(true, std::memory_order_release);
    if (writer_.joinable()) writer_.join();
    if (midi_) {
        if (writeStatus_ != BOOP_OK) return writeStatus_;
        return writeMidiFile();
    }
    if (writeStatus_ != BOOP_OK) {
        error_ = audio_->error();
        audio_->abort();
        return writeStatus_;
    }
    // A recording cannot be made again: synced before the rename (docs/DESIGN.md, "Durability").
    audio_->setDurability(BOOP_DURABILITY_SYNC);
    const boop_status s = audio_->commit();
    if (s != BOOP_OK) error_ = audio_->error();
    return s;
}

// Format 0, one track: the tempo (120 BPM, so that a tick is a fixed time), then each message at
// round((frame - start) / rate * kTicksPerSecond) ticks: rounded from the start, not from the
// message before, so the times never drift.
boop_status SynthRecorder::writeMidiFile() {
    std::vector<uint8_t> track;
    const uint8_t tempo[] = {0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20};
    track.insert(track.end(), tempo, tempo + sizeof tempo);
    const uint64_t start = startFrame_.load(std::memory_order_acquire);
    uint64_t lastTick = 0;
    for (const MidiLogEntry& e : collected_) {
        const double seconds = static_cast<double>(e.frame >= start ? e.frame - start : 0) / rate_;
        const auto tick = static_cast<uint64_t>(std::llround(seconds * kTicksPerSecond));
        putVarLen(track, static_cast<uint32_t>(std::max(tick, lastTick) - lastTick));
        lastTick = std::max(tick, lastTick);
        track.push_back(e.status);
        track.push_back(e.data1);
        if (dataBytes(e.status) == 2) track.push_back(e.data2);
    }
    const uint8_t end[] = {0x00, 0xFF, 0x2F, 0x00};
    track.insert(track.end(), end, end + sizeof end);
    std::vector<uint8_t> file = {'M', 'T', 'h', 'd', 0, 0, 0, 6, 0, 0, 0, 1};
    putBig(file, kTicksPerQuarter, 2);
    file.insert(file.end(), {'M', 'T', 'r', 'k'});
    putBig(file, static_cast<uint32_t>(track.size()), 4);
    file.insert(file.end(), track.begin(), track.end());
    AtomicFile out;
    boop_status s = out.open(path_, 0);
    if (s == BOOP_OK) s = out.write(file.data(), file.size());
    if (s == BOOP_OK) s = out.commit(BOOP_DURABILITY_SYNC);
    if (s != BOOP_OK) error_ = out.error();
    return s;
}

}  // namespace boop
