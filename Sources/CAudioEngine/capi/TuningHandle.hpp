#pragma once
// The tuning's C handle, shared by the shims that take one (TuningApi.cpp, SynthApi.cpp).
#include "engine/Tuning.hpp"

struct boop_tuning {
    boop::Tuning tuning;
};
