// What the live synth's two hosts share (SynthHost): the settings taken before start (refused
// before open and once started), the engine prepared at the host's rate, the messages applied in
// order into the log (what overflows it counted), the --record file opened before start and
// finished after it, and the statistics. A host of the test's own stands in for ALSA and JACK:
// no sound card, no server.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "backend/SynthHost.hpp"
#include "engine/Tuning.hpp"

using boop::MidiLogEntry;
using boop::MidiMessage;
using boop::SynthHost;

namespace {

class FakeHost : public SynthHost {
  public:
    boop_status start() override {
        started_ = true;
        return BOOP_OK;
    }
    boop_status connectMidi(const char*, std::string& why) override {
        why = "no MIDI here";
        return BOOP_ERROR_DEVICE_UNAVAILABLE;
    }
    void stop() noexcept override { started_ = false; }
    double sampleRate() const noexcept override { return 48000.0; }
    uint32_t periodFrames() const noexcept override { return 256; }
    const char* midiPortName() const noexcept override { return "fake"; }
    int endedDescriptor() const noexcept override { return -1; }

    boop_status open(double rate) {
        Settings s;
        for (int& v : s.channelVoices) v = boop::MidiSynth::kPalette + BOOP_VOICE_SINE;
        return prepare(s, rate);
    }
    // The audio thread's part: a message on a frame.
    void play(uint64_t frame, uint8_t status, uint8_t d1, uint8_t d2) {
        MidiMessage m;
        m.status = status;
        m.data1 = d1;
        m.data2 = d2;
        messages_.fetch_add(1);
        apply(frame, m);
    }
    const boop::MidiSynth& synth() const { return *synth_; }
    int lookaheadChanges = 0;
    uint64_t xruns = 7;

  protected:
    void addStats(boop_synth_stats& s) const override { s.xruns = xruns; }
    void lookaheadChanged() noexcept override { ++lookaheadChanges; }
};

std::string scratchDir() {
    char tmpl[] = "/tmp/boop-synthhost-XXXXXX";
    return mkdtemp(tmpl);
}

}  // namespace

TEST_CASE("before open the settings are refused as NOT_RUNNING and the stats are empty") {
    FakeHost h;
    boop_instrument sound{};
    CHECK(h.setChannelSound(0, sound) == BOOP_ERROR_NOT_RUNNING);
    CHECK(h.setLookahead(false) == BOOP_ERROR_NOT_RUNNING);
    CHECK(h.setTuning(boop::Tuning{}) == BOOP_ERROR_NOT_RUNNING);
    CHECK(h.setMpe(3, 0) == BOOP_ERROR_NOT_RUNNING);
    CHECK(h.record("/tmp/never.wav") == BOOP_ERROR_NOT_RUNNING);
    CHECK(h.finishRecording() == BOOP_OK);  // nothing was recorded
    h.fadeOut(0.1);                         // nothing to fade
    const boop_synth_stats s = h.stats();
    CHECK(s.last_note == -1);
    CHECK(s.messages == 0);
    CHECK(s.voices == 0);
    CHECK(s.xruns == 7);  // the host's own counters are asked for
    MidiLogEntry e;
    CHECK_FALSE(h.nextLogged(e));
}

TEST_CASE("open prepares the engine at the host's rate; one it cannot run at is refused") {
    FakeHost bad;
    CHECK(bad.open(1000.0) == BOOP_ERROR_INVALID_ARGUMENT);
    FakeHost h;
    REQUIRE(h.open(48000.0) == BOOP_OK);
    CHECK(h.outputLatency() > 0);  // the limiter's look-ahead
    CHECK(h.setLookahead(false) == BOOP_OK);
    CHECK(h.lookaheadChanges == 1);
    CHECK(h.outputLatency() == 0);  // --lookahead 0: the clipper, no delay
    CHECK(h.setLookahead(true) == BOOP_OK);
    CHECK(h.lookaheadChanges == 2);
    CHECK(h.outputLatency() > 0);
    CHECK(h.setMpe(3, 2) == BOOP_OK);
    CHECK(h.synth().mpeMembers(false) == 3);
    CHECK(h.synth().mpeMembers(true) == 2);
    CHECK(h.setMpe(0, 0) == BOOP_OK);  // an upper zone of 0 is left as it was
    CHECK(h.synth().mpeMembers(false) == 0);
    CHECK(h.synth().mpeMembers(true) == 2);
}

TEST_CASE("once started the settings are refused as ALREADY_RUNNING") {
    FakeHost h;
    REQUIRE(h.open(48000.0) == BOOP_OK);
    REQUIRE(h.start() == BOOP_OK);
    boop_instrument sound{};
    CHECK(h.setChannelSound(0, sound) == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(h.setLookahead(false) == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(h.setTuning(boop::Tuning{}) == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(h.setMpe(1, 0) == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(h.record("/tmp/never.wav") == BOOP_ERROR_ALREADY_RUNNING);
    CHECK(h.lookaheadChanges == 0);
}

TEST_CASE("applied messages reach the synth and the log in order; what overflows the log is counted") {
    FakeHost h;
    REQUIRE(h.open(48000.0) == BOOP_OK);
    REQUIRE(h.start() == BOOP_OK);
    h.play(10, 0x92, 60, 100);  // channel 3, C4
    h.play(25, 0x92, 64, 90);
    h.play(40, 0x82, 60, 0);
    boop_synth_stats s = h.stats();
    CHECK(s.messages == 3);
    CHECK(s.notes_held == 1);
    CHECK(s.last_note == (2 << 8 | 64));
    MidiLogEntry e;
    const MidiLogEntry expected[3] = {{10, 0x92, 60, 100}, {25, 0x92, 64, 90}, {40, 0x82, 60, 0}};
    for (const MidiLogEntry& x : expected) {
        REQUIRE(h.nextLogged(e));
        CHECK(e.frame == x.frame);
        CHECK(e.status == x.status);
        CHECK(e.data1 == x.data1);
        CHECK(e.data2 == x.data2);
    }
    CHECK_FALSE(h.nextLogged(e));
    CHECK(h.logDropped() == 0);
    // 4096 entries fill the log (a power of two); the 10 after them are dropped and counted.
    for (uint64_t i = 0; i < 4096 + 10; ++i) h.play(100 + i, 0xB0, 1, uint8_t(i & 0x7F));
    CHECK(h.logDropped() == 10);
    uint64_t frame = 100;
    while (h.nextLogged(e)) CHECK(e.frame == frame++);
    CHECK(frame == 100 + 4096);
}

TEST_CASE("--record: refused without a path or a format, made before start and finished after") {
    const std::string dir = scratchDir();
    FakeHost h;
    REQUIRE(h.open(48000.0) == BOOP_OK);
    CHECK(h.record(nullptr) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(h.record((dir + "/take.txt").c_str()) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(h.recordError()).size() > 0);  // why, in words
    const std::string path = dir + "/take.mid";
    REQUIRE(h.record(path.c_str()) == BOOP_OK);
    CHECK(h.record(path.c_str()) == BOOP_ERROR_ALREADY_RUNNING);  // one file a run
    REQUIRE(h.start() == BOOP_OK);
    h.play(0, 0x90, 69, 100);
    h.play(4800, 0x80, 69, 0);
    CHECK(h.finishRecording() == BOOP_ERROR_ALREADY_RUNNING);  // the audio thread still pushes
    h.stop();
    REQUIRE(h.finishRecording() == BOOP_OK);
    CHECK(h.recordDropped() == 0);
    FILE* f = std::fopen(path.c_str(), "rb");
    REQUIRE(f != nullptr);
    char magic[4] = {};
    CHECK(std::fread(magic, 1, 4, f) == 4);
    std::fclose(f);
    CHECK(std::string(magic, 4) == "MThd");  // a Standard MIDI File
    std::remove(path.c_str());
    rmdir(dir.c_str());
}
