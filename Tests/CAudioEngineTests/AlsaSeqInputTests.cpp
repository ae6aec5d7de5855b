#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/alsa/AlsaSeqInput.hpp"
#include "backend/alsa/AlsaSeqMatch.hpp"
#include "backend/alsa/AlsaSynth.hpp"
#include "include/CAudioEngine.h"

using boop::matchSeqPort;
using boop::SeqPort;

namespace {
const std::vector<SeqPort> kPorts = {
    {14, 0, "Midi Through", "Midi Through Port-0"},
    {24, 0, "Keystation 49 MK3", "Keystation 49 MK3 MIDI 1"},
    {24, 1, "Keystation 49 MK3", "Keystation 49 MK3 MIDI 2"},
    {128, 0, "seq66", "seq66 out 1"},
};
}  // namespace

TEST_CASE("a source is found by client:port numbers, a client number, name:port, or part of its name") {
    CHECK(matchSeqPort(kPorts, "24:1") == 2);
    CHECK(matchSeqPort(kPorts, "24:0") == 1);
    CHECK(matchSeqPort(kPorts, "24") == 1);          // a client alone: its first port
    CHECK(matchSeqPort(kPorts, "keystation") == 1);  // case ignored, the first port that matches
    CHECK(matchSeqPort(kPorts, "MIDI 2") == 2);
    CHECK(matchSeqPort(kPorts, "Keystation:1") == 2);  // name:port
    CHECK(matchSeqPort(kPorts, "seq66") == 3);
    CHECK(matchSeqPort(kPorts, "Through") == 0);
    CHECK(matchSeqPort(kPorts, "Midi Through:Midi Through Port-0") == 0);  // the full "client:port" name
}

TEST_CASE("what names no source matches nothing") {
    CHECK(matchSeqPort(kPorts, "") == -1);
    CHECK(matchSeqPort(kPorts, "24:7") == -1);  // numbers are exact: no fall back to the text
    CHECK(matchSeqPort(kPorts, "99") == -1);
    CHECK(matchSeqPort(kPorts, "nanoKEY") == -1);
    CHECK(matchSeqPort(kPorts, "Keystation:5") == -1);
    CHECK(matchSeqPort({}, "14:0") == -1);
    CHECK(matchSeqPort(kPorts, "99999999999999999999:0") == -1);  // too long to be a number: a name
}

TEST_CASE("a missing sequencer device fails the open cleanly, with one line saying so") {
    boop::AlsaSeqInput input;
    boop::AlsaSeqInput::Config config;
    config.devicePath = "/nonexistent/snd/seq";
    std::string why;
    CHECK(input.open(config, why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(why == "no ALSA sequencer (/nonexistent/snd/seq: No such file or directory)");
    CHECK(input.portName().empty());
    CHECK(input.sources().empty());
    std::string whyNot;
    CHECK(input.subscribe("14:0", whyNot) == BOOP_ERROR_NOT_RUNNING);
    CHECK(input.start([](void*, uint64_t, const snd_seq_event_t&) {}, nullptr) == BOOP_ERROR_NOT_RUNNING);
    input.stop();  // and again from the destructor: harmless
}

TEST_CASE("the ALSA synth gives up at the missing sequencer before opening any sound device") {
    boop::AlsaSynth synth;
    boop::AlsaSynth::Config config;
    config.seq.devicePath = "/nonexistent/snd/seq";
    config.pcm.device = "a PCM that is never opened";
    std::string why;
    CHECK(synth.open(config, why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(why.rfind("no ALSA sequencer", 0) == 0);
    CHECK(synth.start() == BOOP_ERROR_NOT_RUNNING);
    CHECK(synth.stats().frames == 0);
}

TEST_CASE("the C API reports the reason, and rejects a bad ALSA config before opening anything") {
    boop_synth_config config;
    boop_synth_config_default(&config);
    config.backend = BOOP_BACKEND_ALSA;
    config.period_frames = 1;
    boop_synth* synth = nullptr;
    char why[160] = "x";
    CHECK(boop_synth_open_why(&config, &synth, why, sizeof why) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(synth == nullptr);
    CHECK(std::string(why).empty());
}

TEST_CASE("a synth's output stage: the playback's defaults, and a gain or ceiling out of range refused") {
    boop_synth_config config;
    boop_synth_config_default(&config);
    boop_output_config defaults;
    boop_output_config_default(&defaults);
    CHECK(config.output.gain_db == defaults.gain_db);
    CHECK(config.output.ceiling_dbtp == defaults.ceiling_dbtp);
    boop_synth* synth = nullptr;
    for (double gain : {BOOP_GAIN_DB_MAX + 0.1, BOOP_GAIN_DB_MIN - 0.1, std::nan("")}) {
        config.output.gain_db = gain;
        CHECK(boop_synth_open(&config, &synth) == BOOP_ERROR_INVALID_ARGUMENT);
    }
    config.output.gain_db = 0;
    config.output.ceiling_dbtp = BOOP_CEILING_DBTP_MAX + 0.5;
    CHECK(boop_synth_open(&config, &synth) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(synth == nullptr);
    CHECK(boop_synth_output_latency_frames(nullptr) == 0);
}

#include "backend/alsa/AlsaSeqOutput.hpp"

TEST_CASE("MIDI out on the sequencer: a frame is scheduled for when it is heard; no sequencer fails cleanly") {
    const boop::MidiArrivalClock::Line line{7'000'000'000, 48000, 1e9 / 48000};
    // The render head itself, heard a buffer (and the stage's look-ahead) later: 768 frames = 16 ms.
    CHECK(boop::AlsaSeqSchedule::frameTimeNs(line, 48000, 768) == 7'016'000'000);
    CHECK(boop::AlsaSeqSchedule::frameTimeNs(line, 48000 + 48, 0) == 7'001'000'000);
    CHECK(boop::AlsaSeqSchedule::frameTimeNs(line, 48000 - 48, 0) == 6'999'000'000);

    boop::AlsaSeqOutput out;
    boop::AlsaSeqOutput::Config config;
    config.devicePath = "/nonexistent/snd/seq";
    std::string why;
    CHECK(out.open(config, why) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(why == "no ALSA sequencer (/nonexistent/snd/seq: No such file or directory)");
    const uint8_t on[3] = {0x90, 60, 100};
    CHECK(out.send(0, on, 3) == BOOP_ERROR_NOT_RUNNING);
    out.panic();  // nothing open: nothing to do
    CHECK(out.connect("14:0", why) == BOOP_ERROR_NOT_RUNNING);
}

#include <cstring>

TEST_CASE("a playback config's defaults leave MIDI out off, whatever the memory held before") {
    boop_playback_config config;
    std::memset(&config, 0x5A, sizeof config);
    boop_playback_config_default(&config);
    CHECK(config.midi_out == 0);  // on ALSA a stray value would open the sequencer
    CHECK(config.mute == 0);
}
