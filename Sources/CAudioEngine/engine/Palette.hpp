#pragma once
#include <algorithm>
#include "include/CAudioEngine.h"

// The engine's side of the voice and kit lists (CAudioEngine.h, BOOP_VOICES and BOOP_KITS): it
// uses their C enums as they are, and its checks and tables come from the same lines, so there is
// no second list to fall out of step.
namespace boop {

namespace palette {
#define BOOP_VALUE_OF(ENUMERATOR, name, value, ...) value,
constexpr int kVoiceValues[] = {BOOP_VOICES(BOOP_VALUE_OF)};
constexpr int kKitValues[] = {BOOP_KITS(BOOP_VALUE_OF)};
#undef BOOP_VALUE_OF

constexpr bool counted(const int* values, int count) {
    for (int i = 0; i < count; ++i)
        if (values[i] != i) return false;
    return true;
}
}  // namespace palette

// Tables of voices and kits are indexed by the value: it must be the line's place in the list.
static_assert(palette::counted(palette::kVoiceValues, BOOP_VOICE_COUNT), "BOOP_VOICES: values 0, 1, 2 ... in order");
static_assert(palette::counted(palette::kKitValues, BOOP_KIT_COUNT), "BOOP_KITS: values 0, 1, 2 ... in order");

constexpr bool isVoice(int value) noexcept { return value >= 0 && value < BOOP_VOICE_COUNT; }
constexpr bool isKit(int value) noexcept { return value >= 0 && value < BOOP_KIT_COUNT; }

// A voice from a number the control thread sent, an out-of-range one the nearest voice.
constexpr boop_instrument_voice clampVoice(int value) noexcept {
    return static_cast<boop_instrument_voice>(std::clamp(value, 0, BOOP_VOICE_COUNT - 1));
}

}  // namespace boop
