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
