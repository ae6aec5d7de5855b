#pragma once
// MIDI 1.0 byte streams to channel messages. JACK hands whole messages, but a port may carry
// anything (running status across events, SysEx split over events, stray bytes from a broken
// cable or a fuzzer), so the parser takes bytes one at a time and keeps its state between
// events. It never allocates and never fails: what it cannot use it counts and skips.
#include <cstdint>

#include "rt/Realtime.hpp"

namespace boop {

// One complete channel message: status 0x80...0xEF with its channel in the low nibble.
struct MidiMessage {
    uint8_t status = 0;
    uint8_t data1 = 0;
    uint8_t data2 = 0;

    uint8_t kind() const noexcept { return status & 0xF0; }
    uint8_t channel() const noexcept { return status & 0x0F; }  // 0-based
};

class MidiParser {
  public:
    // Feeds one byte; true when it completed a channel message (written to `out`).
    bool feed(uint8_t byte, MidiMessage& out) BOOP_RT;
    void reset() BOOP_RT;

    // Bytes that belonged to no message: data bytes with no status to run on, and messages a
    // new status byte cut short (each of their bytes).
    uint64_t malformed() const noexcept { return malformed_; }
    // Complete messages that are ignored: SysEx, system common and real-time (clock, start ...),
    // and the undefined status bytes.
    uint64_t ignored() const noexcept { return ignored_; }
    uint64_t messages() const noexcept { return messages_; }

    // Data bytes a channel status takes: 1 for program change and channel pressure, else 2.
    static int dataLength(uint8_t status) noexcept;

  private:
    uint8_t running_ = 0;  // the channel status in force, 0 when none
    uint8_t data_[2] = {0, 0};
    int have_ = 0;  // data bytes collected for running_
    int skip_ = 0;  // data bytes of a system common message still to drop
    bool inSysEx_ = false;
    uint64_t malformed_ = 0;
    uint64_t ignored_ = 0;
    uint64_t messages_ = 0;
};

}  // namespace boop
