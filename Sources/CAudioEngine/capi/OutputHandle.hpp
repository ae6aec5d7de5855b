#pragma once
// The output chain's C handle (offline: a source through the output stage), shared by the shims
// that take one (OutputApi.cpp, FileWriterApi.cpp).
#include "engine/OutputChain.hpp"

struct boop_output {
    boop::OutputChain chain;
};
