#include <doctest/doctest.h>

#include <cstring>
#include <initializer_list>

#include "backend/alsa/AlsaSeqEvents.hpp"

using boop::MidiMessage;
using boop::seqEventToMidi;

namespace {
snd_seq_event_t event(snd_seq_event_type_t type) {
    snd_seq_event_t e;
    std::memset(&e, 0, sizeof e);
    e.type = type;
    return e;
}
}  // namespace

TEST_CASE("sequencer note events become the channel messages the byte parser makes") {
    snd_seq_event_t e = event(SND_SEQ_EVENT_NOTEON);
    e.data.note.channel = 9;
    e.data.note.note = 38;
    e.data.note.velocity = 100;
    MidiMessage m;
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.status == 0x99);
    CHECK(m.data1 == 38);
    CHECK(m.data2 == 100);
    e.type = SND_SEQ_EVENT_NOTEOFF;
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.status == 0x89);
    e.data.note.velocity = 0;  // a note-on of velocity 0 stays one (MidiSynth treats it as off)
    e.type = SND_SEQ_EVENT_NOTEON;
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.status == 0x99);
    CHECK(m.data2 == 0);
}

TEST_CASE("controllers, program, pressure and pitch bend; 14-bit controllers and the rest are skipped") {
    snd_seq_event_t e = event(SND_SEQ_EVENT_CONTROLLER);
    e.data.control.channel = 0;
    e.data.control.param = 64;
    e.data.control.value = 127;
    MidiMessage m;
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.status == 0xB0);
    CHECK(m.data1 == 64);
    CHECK(m.data2 == 127);
    e.data.control.value = 300;  // out of range from a buggy client: clamped, never garbage
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.data2 == 127);
    e.data.control.param = 200;
    CHECK_FALSE(seqEventToMidi(e, m));

    e = event(SND_SEQ_EVENT_PITCHBEND);
    e.data.control.channel = 2;
    for (int v : {-8192, -1, 0, 8191, 9000}) {
        e.data.control.value = v;
        REQUIRE(seqEventToMidi(e, m));
        CHECK(m.status == 0xE2);
        const int bend = (m.data2 << 7 | m.data1) - 8192;
        CHECK(bend == (v > 8191 ? 8191 : v));
    }
    e = event(SND_SEQ_EVENT_PGMCHANGE);
    e.data.control.channel = 5;
    e.data.control.value = 12;
    REQUIRE(seqEventToMidi(e, m));
    CHECK(m.status == 0xC5);
    CHECK(m.data1 == 12);
    for (auto type : {SND_SEQ_EVENT_CLOCK, SND_SEQ_EVENT_START, SND_SEQ_EVENT_SYSEX, SND_SEQ_EVENT_PORT_START,
                      SND_SEQ_EVENT_SENSING})
        CHECK_FALSE(seqEventToMidi(event(type), m));
}
