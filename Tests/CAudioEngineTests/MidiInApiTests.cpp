#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "include/CAudioEngine.h"

// `boop edit --midi`: the keyboard input's C API. The build machines have no sequencer: there the
// open must fail at once with the line the editor prints; where one exists that case is skipped.
TEST_CASE("the MIDI keyboard input fails cleanly without a sequencer and rejects bad arguments") {
    boop_midi_in* input = reinterpret_cast<boop_midi_in*>(1);
    CHECK(boop_midi_in_open("boop-edit", nullptr, &input, nullptr, 0) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_midi_in_open("boop-edit", "14:0", nullptr, nullptr, 0) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_midi_in_descriptor(nullptr) == -1);
    CHECK(boop_midi_in_dropped(nullptr) == 0);
    boop_midi_event events[4];
    CHECK(boop_midi_in_read(nullptr, events, 4) == 0);
    boop_midi_in_destroy(nullptr);
    if (access("/dev/snd/seq", F_OK) == 0) {
        MESSAGE("skipped the no-sequencer case: /dev/snd/seq exists on this machine");
        return;
    }
    char why[160] = "x";
    input = reinterpret_cast<boop_midi_in*>(1);
    CHECK(boop_midi_in_open("boop-edit", "14:0", &input, why, sizeof why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(input == nullptr);
    CHECK(std::string(why) == "no ALSA sequencer (/dev/snd/seq: No such file or directory)");
    char tiny[10];
    CHECK(boop_midi_in_open("boop-edit", "14:0", &input, tiny, sizeof tiny) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(std::string(tiny) == "no ALSA s");  // cut to fit, always terminated
}

#include <poll.h>

#include "backend/alsa/AlsaSeqMailbox.hpp"

namespace {
bool readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}
snd_seq_event_t noteEvent(unsigned char type, unsigned char channel, unsigned char note, unsigned char velocity) {
    snd_seq_event_t e{};
    e.type = type;
    e.data.note.channel = channel;
    e.data.note.note = note;
    e.data.note.velocity = velocity;
    return e;
}
}  // namespace

TEST_CASE("the mailbox hands notes to the loop in order, wakes it, and stays readable while more wait") {
    boop::AlsaSeqMailbox box;
    REQUIRE(box.descriptor() >= 0);
    CHECK_FALSE(readable(box.descriptor()));
    box.post(10, noteEvent(SND_SEQ_EVENT_NOTEON, 2, 60, 100));
    snd_seq_event_t clock{};
    clock.type = SND_SEQ_EVENT_CLOCK;
    box.post(11, clock);  // no channel message: left out
    box.post(12, noteEvent(SND_SEQ_EVENT_NOTEOFF, 2, 60, 0));
    box.post(13, noteEvent(SND_SEQ_EVENT_NOTEON, 0, 64, 70));
    CHECK(readable(box.descriptor()));
    boop_midi_event got[2];
    REQUIRE(box.take(got, 2) == 2);
    CHECK(got[0].frame == 10);
    CHECK((got[0].status == 0x92 && got[0].data1 == 60 && got[0].data2 == 100));
    CHECK((got[1].frame == 12 && got[1].status == 0x82));
    CHECK(readable(box.descriptor()));  // one more waits
    REQUIRE(box.take(got, 2) == 1);
    CHECK((got[0].status == 0x90 && got[0].data1 == 64 && got[0].data2 == 70));
    CHECK_FALSE(readable(box.descriptor()));
    CHECK(box.take(got, 2) == 0);
    for (std::size_t i = 0; i < boop::AlsaSeqMailbox::kCapacity + 5; ++i)
        box.post(i, noteEvent(SND_SEQ_EVENT_NOTEON, 0, 60, 1));
    CHECK(box.dropped() == 5);
}

#include "TestSignals.hpp"
#include "backend/jack/JackMidiKeys.hpp"

namespace {
boop_keys_sound melodyKeys() {
    boop_keys_sound s{};
    s.kind = BOOP_KEYS_TIMBRE;
    s.index = BOOP_TIMBRE_TONE;
    s.gain = 0.6f;
    s.accent_gain = 1.0f;
    s.accent_velocity = 100;
    for (uint8_t& k : s.keys) k = 0xFF;
    s.keys[72 >> 3] &= uint8_t(~(1u << (72 & 7)));  // C5 is not taken: it stays silent
    return s;
}
}  // namespace

// On JACK the process callback plays a key on the engine at the frame it renders next (the
// playback renders up to the key's offset first), and queues it for the editor's loop, which reads
// it without a descriptor (the audio thread wakes nobody).
TEST_CASE("a JACK keyboard's note starts on the engine's next frame and reaches the loop's read") {
    testsig::EngineHandle engine(48000.0, 8, 1, 1024);
    boop_midi_in* in = nullptr;
    REQUIRE(boop_midi_in_open_jack("keys:out", &in) == BOOP_OK);
    CHECK(boop_midi_in_descriptor(in) == -1);
    boop_keys_sound sound = melodyKeys();
    CHECK(boop_midi_in_set_sound(in, nullptr, &sound) == BOOP_ERROR_INVALID_ARGUMENT);
    sound.index = BOOP_TIMBRE_COUNT;
    CHECK(boop_midi_in_set_sound(in, engine, &sound) == BOOP_ERROR_INVALID_ARGUMENT);
    sound = melodyKeys();
    REQUIRE(boop_midi_in_set_sound(in, engine, &sound) == BOOP_OK);
    boop::MidiKeysQueue& keys = *boop::midiKeysOf(in);
    keys.takeSound();  // a cycle's start
    auto before = engine.render(137, 137);
    keys.play(boop_midi_event{137, 0x90, 72, 110});  // not taken: silent, still queued
    keys.play(boop_midi_event{137, 0x90, 69, 110});
    auto after = engine.render(400, 400);
    CHECK(testsig::firstAbove(before, 0.0f) == -1);
    CHECK(testsig::firstAbove(after, 0.0f) == 1);  // the envelope's first sample is 0: frame 137 + 1
    CHECK(boop_engine_active_voices(engine) == 1);
    keys.play(boop_midi_event{537, 0x80, 69, 0});
    engine.render(48000, 512);
    CHECK(boop_engine_active_voices(engine) == 0);  // released on its note-off
    boop_midi_event got[4];
    REQUIRE(boop_midi_in_read(in, got, 4) == 3);
    CHECK((got[0].frame == 137 && got[0].data1 == 72 && got[1].data1 == 69 && got[2].status == 0x80));
    CHECK(boop_midi_in_read(in, got, 4) == 0);
    boop_midi_in_destroy(in);
}

// The editor recording puts channel 10's keys on the rhythm track: they sound as its kit while the
// other channels sound as the track under the cursor; cleared, channel 10 sounds as the others again.
TEST_CASE("a JACK keyboard's channel with a sound of its own, and a note-off whichever sound began the note") {
    testsig::EngineHandle engine(48000.0, 8, 1, 1024);
    boop_midi_in* in = nullptr;
    REQUIRE(boop_midi_in_open_jack("keys:out", &in) == BOOP_OK);
    const boop_keys_sound melody = melodyKeys();
    boop_keys_sound drums = melodyKeys();
    drums.kind = BOOP_KEYS_DRUMS;
    drums.index = BOOP_KIT_GM;
    CHECK(boop_midi_in_set_channel_sound(in, engine, 16, &drums) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_midi_in_set_channel_sound(in, nullptr, 9, &drums) == BOOP_ERROR_INVALID_ARGUMENT);
    drums.index = BOOP_KIT_COUNT;
    CHECK(boop_midi_in_set_channel_sound(in, engine, 9, &drums) == BOOP_ERROR_INVALID_ARGUMENT);
    drums.index = BOOP_KIT_GM;
    REQUIRE(boop_midi_in_set_sound(in, engine, &melody) == BOOP_OK);
    REQUIRE(boop_midi_in_set_channel_sound(in, engine, 9, &drums) == BOOP_OK);
    boop::MidiKeysQueue& keys = *boop::midiKeysOf(in);
    keys.takeSound();
    // Key 38 is General MIDI's snare (noise: much of its energy above 3 kHz) or D2 as a tone (73 Hz:
    // almost none there). Each sounds 0.1 s, then rings out.
    const auto highShare = [&](uint8_t channel) {
        keys.play(boop_midi_event{0, uint8_t(0x90 | channel), 38, 100});
        const std::vector<float> x = engine.render(4800, 512);
        keys.play(boop_midi_event{0, uint8_t(0x80 | channel), 38, 0});
        engine.render(48000, 512);
        return testsig::energy(testsig::highpass(x, 48000.0, 3000.0)) / testsig::energy(x);
    };
    CHECK(highShare(9) > 0.1);
    CHECK(highShare(0) < 0.01);
    REQUIRE(boop_midi_in_set_channel_sound(in, engine, 9, nullptr) == BOOP_OK);
    keys.takeSound();
    CHECK(highShare(9) < 0.01);
    // A tone begun on channel 10 with the keyboard's sound ends on its note-off after channel 10
    // took the drums' sound.
    keys.play(boop_midi_event{0, 0x99, 69, 100});
    engine.render(4800, 512);
    CHECK(boop_engine_active_voices(engine) == 1);
    REQUIRE(boop_midi_in_set_channel_sound(in, engine, 9, &drums) == BOOP_OK);
    keys.takeSound();
    keys.play(boop_midi_event{0, 0x89, 69, 0});
    engine.render(48000, 512);
    CHECK(boop_engine_active_voices(engine) == 0);
    boop_midi_in_destroy(in);
}
