// The live synth's tables as the C API hands them out (CAudioEngineSynth.h): the Program Change
// map and the controllers' lines, one entry per X-macro line.
#include "engine/MidiSynth.hpp"
#include "include/CAudioEngineSynth.h"

namespace {

struct ControlLine {
    const char* message;
    const char* name;
    const char* effect;
};

#define BOOP_CONTROL_LINE(message, name, effect) {message, name, effect},
constexpr ControlLine kControls[] = {BOOP_SYNTH_CONTROLS(BOOP_CONTROL_LINE)};
#undef BOOP_CONTROL_LINE
constexpr uint32_t kControlCount = sizeof kControls / sizeof kControls[0];

#define BOOP_FAMILY_NAME(name, voice) name,
constexpr const char* kFamilies[] = {BOOP_GM_FAMILIES(BOOP_FAMILY_NAME)};
#undef BOOP_FAMILY_NAME

}  // namespace

extern "C" {

boop_instrument_voice boop_synth_program_voice(int program) { return boop::MidiSynth::programVoice(program); }

const char* boop_gm_family_name(uint32_t family) { return family < 16 ? kFamilies[family] : nullptr; }

uint32_t boop_synth_control_count(void) { return kControlCount; }

const char* boop_synth_control_message(uint32_t index) {
    return index < kControlCount ? kControls[index].message : nullptr;
}

const char* boop_synth_control_name(uint32_t index) { return index < kControlCount ? kControls[index].name : nullptr; }

const char* boop_synth_control_effect(uint32_t index) {
    return index < kControlCount ? kControls[index].effect : nullptr;
}

}  // extern "C"
