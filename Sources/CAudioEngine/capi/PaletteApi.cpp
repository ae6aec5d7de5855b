// The voices and kits as the C API hands them out: one entry per line of BOOP_VOICES and BOOP_KITS.
#include "engine/Palette.hpp"
#include "include/CAudioEngine.h"

namespace {

struct VoiceLine {
    const char* name;
    const char* description;
    int program;
    boop_instrument sound;
};

#define BOOP_VOICE_LINE(ENUMERATOR, name, value, program, attack, decay, sustain, release, cutoff, resonance, \
                        description)                                                                          \
    {name, description, program, {ENUMERATOR, 0.5, attack, decay, sustain, release, cutoff, resonance, 0.0}},
constexpr VoiceLine kVoices[] = {BOOP_VOICES(BOOP_VOICE_LINE)};
#undef BOOP_VOICE_LINE

struct KitLine {
    const char* name;
    const char* description;
};

#define BOOP_KIT_LINE(ENUMERATOR, name, value, description) {name, description},
constexpr KitLine kKits[] = {BOOP_KITS(BOOP_KIT_LINE)};
#undef BOOP_KIT_LINE

const VoiceLine* voiceLine(boop_instrument_voice voice) {
    return boop::isVoice(static_cast<int>(voice)) ? &kVoices[voice] : nullptr;
}

const KitLine* kitLine(boop_kit kit) { return boop::isKit(static_cast<int>(kit)) ? &kKits[kit] : nullptr; }

// A field of a table's line, or `none` for a voice or kit out of range.
template <class Line, class T>
T field(const Line* line, T Line::*member, T none = T{}) {
    return line != nullptr ? line->*member : none;
}

}  // namespace

extern "C" {

uint32_t boop_voice_count(void) { return BOOP_VOICE_COUNT; }

const char* boop_voice_name(boop_instrument_voice voice) { return field(voiceLine(voice), &VoiceLine::name); }

const char* boop_voice_description(boop_instrument_voice voice) {
    return field(voiceLine(voice), &VoiceLine::description);
}

int boop_voice_gm_program(boop_instrument_voice voice) { return field(voiceLine(voice), &VoiceLine::program, -1); }

boop_status boop_voice_sound(boop_instrument_voice voice, boop_instrument* sound) {
    const VoiceLine* line = voiceLine(voice);
    if (!line || !sound) return BOOP_ERROR_INVALID_ARGUMENT;
    *sound = line->sound;
    return BOOP_OK;
}

uint32_t boop_kit_count(void) { return BOOP_KIT_COUNT; }

const char* boop_kit_name(boop_kit kit) { return field(kitLine(kit), &KitLine::name); }

const char* boop_kit_description(boop_kit kit) { return field(kitLine(kit), &KitLine::description); }

}  // extern "C"
