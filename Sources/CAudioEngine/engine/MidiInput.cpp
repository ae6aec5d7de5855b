#include "engine/MidiInput.hpp"

namespace boop {

int MidiParser::dataLength(uint8_t status) noexcept {
    const uint8_t kind = status & 0xF0;
    return kind == 0xC0 || kind == 0xD0 ? 1 : 2;
}

void MidiParser::reset() BOOP_RT {
    running_ = 0;
    have_ = 0;
    skip_ = 0;
    inSysEx_ = false;
}

bool MidiParser::feed(uint8_t byte, MidiMessage& out) BOOP_RT {
    if (byte >= 0xF8) {
        // Real-time bytes may appear anywhere, even inside another message, and change nothing.
        ++ignored_;
        return false;
    }
    if (byte & 0x80) {
        // A status byte ends whatever came before it; a message it cuts short is malformed.
        if (have_ > 0) malformed_ += static_cast<uint64_t>(have_) + 1;
        have_ = 0;
        skip_ = 0;
        if (inSysEx_) {
            inSysEx_ = false;
            if (byte == 0xF7) return false;  // the SysEx's own end
        }
        if (byte < 0xF0) {
            running_ = byte;
            return false;
        }
        // System common cancels running status (MIDI 1.0, "Running Status").
        running_ = 0;
        ++ignored_;
        switch (byte) {
            case 0xF0:
                inSysEx_ = true;
                break;
            case 0xF1:
            case 0xF3:
                skip_ = 1;
                break;  // time code quarter frame, song select
            case 0xF2:
                skip_ = 2;
                break;  // song position pointer
            default:
                break;  // tune request, undefined F4/F5, a stray F7
        }
        return false;
    }
    if (inSysEx_) return false;  // SysEx payload
    if (skip_ > 0) {
        --skip_;
        return false;
    }
    if (running_ == 0) {
        ++malformed_;
        return false;
    }
    data_[have_++] = byte;
    if (have_ < dataLength(running_)) return false;
    out.status = running_;
    out.data1 = data_[0];
    out.data2 = have_ > 1 ? data_[1] : 0;
    have_ = 0;
    ++messages_;
    return true;
}

}  // namespace boop
