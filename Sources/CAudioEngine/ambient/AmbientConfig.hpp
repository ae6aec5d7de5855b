#pragma once
// A preset in plain numbers: its defaults and the one table of its fields' ranges, which the engine
// checks against and front ends quote in their messages (boop_ambient_range_of).
#include "include/CAudioEngine.h"

namespace boop::ambient {

void defaultConfig(boop_ambient_config& c) noexcept;

// The static name of the first field out of range (nullptr when the config is valid).
const char* checkConfig(const boop_ambient_config& c) noexcept;

// The row for a config field, nullptr for an unknown name.
const boop_ambient_range* rangeOf(const char* field) noexcept;

}  // namespace boop::ambient
