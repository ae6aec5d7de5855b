#include <doctest/doctest.h>
#include <poll.h>

#include "Readable.hpp"
#include "backend/EndedSignal.hpp"

// The descriptor a control thread sleeps on to learn that a backend's audio stopped.

using testfd::readable;

TEST_CASE("an ended signal is quiet until raised, readable after (however often raised), quiet again once cleared") {
    boop::EndedSignal s;
    REQUIRE(s.descriptor() >= 0);
    CHECK_FALSE(readable(s.descriptor()));
    s.clear();  // clearing what was never raised is harmless
    CHECK_FALSE(readable(s.descriptor()));
    s.raise();
    CHECK(readable(s.descriptor()));
    CHECK(readable(s.descriptor()));  // looking does not take it away
    s.raise();
    s.clear();  // one clear takes every raise
    CHECK_FALSE(readable(s.descriptor()));
}

TEST_CASE("two signals have descriptors of their own") {
    boop::EndedSignal a;
    boop::EndedSignal b;
    REQUIRE(a.descriptor() >= 0);
    REQUIRE(b.descriptor() >= 0);
    CHECK(a.descriptor() != b.descriptor());
    a.raise();
    CHECK_FALSE(readable(b.descriptor()));
}
