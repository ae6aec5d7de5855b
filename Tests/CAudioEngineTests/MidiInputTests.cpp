#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "engine/MidiInput.hpp"

using boop::MidiMessage;
using boop::MidiParser;

namespace {
std::vector<MidiMessage> parse(MidiParser& p, std::initializer_list<int> bytes) {
    std::vector<MidiMessage> out;
    for (int b : bytes) {
        MidiMessage m;
        if (p.feed(static_cast<uint8_t>(b), m)) out.push_back(m);
    }
    return out;
}
}  // namespace

TEST_CASE("running status: data bytes after one status are further messages of it") {
    MidiParser p;
    auto m = parse(p, {0x90, 60, 100, 64, 90, 60, 0, 0xC3, 5, 7});
    REQUIRE(m.size() == 5);
    CHECK(m[1].status == 0x90);
    CHECK(m[1].data1 == 64);
    CHECK(m[1].data2 == 90);
    CHECK(m[2].data2 == 0);
    CHECK(m[3].kind() == 0xC0);
    CHECK(m[3].channel() == 3);
    CHECK(m[4].data1 == 7);  // program change takes one data byte, and runs too
    CHECK(p.malformed() == 0);
}

TEST_CASE("real-time bytes inside a message change nothing; SysEx and system common are skipped") {
    MidiParser p;
    auto m = parse(p, {0x90, 0xF8, 60, 0xFA, 100});
    REQUIRE(m.size() == 1);
    CHECK(m[0].data1 == 60);
    CHECK(m[0].data2 == 100);
    // SysEx (its payload looks like data), then data with no status: running status was cancelled.
    m = parse(p, {0xF0, 0x7E, 0x01, 0x02, 0xF7, 61, 100});
    CHECK(m.empty());
    CHECK(p.malformed() == 2);
    // Song position pointer's two bytes are its own, not notes.
    m = parse(p, {0x91, 0xF2, 0x10, 0x20, 0x91, 62, 1});
    REQUIRE(m.size() == 1);
    CHECK(m[0].status == 0x91);
    CHECK(p.ignored() == 4);  // F8, FA, F0, F2
}

TEST_CASE("a message cut short by a new status is counted, and the new one parses") {
    MidiParser p;
    auto m = parse(p, {0x90, 60, 0x80, 60, 0});
    REQUIRE(m.size() == 1);
    CHECK(m[0].kind() == 0x80);
    CHECK(p.malformed() == 2);
}

TEST_CASE("a million random bytes: no crash, every message well formed") {
    MidiParser p;
    std::mt19937 rng(26);
    uint64_t count = 0;
    for (int i = 0; i < 1000000; ++i) {
        MidiMessage m;
        if (!p.feed(static_cast<uint8_t>(rng() & 0xFF), m)) continue;
        ++count;
        REQUIRE(m.status >= 0x80);
        REQUIRE(m.status < 0xF0);
        REQUIRE(m.data1 < 0x80);
        REQUIRE(m.data2 < 0x80);
    }
    CHECK(count == p.messages());
    CHECK(count > 1000);
    CHECK(p.malformed() > 1000);
}
