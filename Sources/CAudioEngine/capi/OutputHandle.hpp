#pragma once
// The output stage's C handle, shared by the shims that take one (OutputApi.cpp, FileWriterApi.cpp).
#include "engine/OutputStage.hpp"

struct boop_output {
    boop::OutputStage stage;
};
