// Scala's .scl and .kbm readers (engine/ScalaFile) on their own, below the C API that TuningTests
// drives: every pitch form against 1200 log2(ratio), the mapping's seven header numbers, and each
// malformed line refused with its line number (comment lines counted, as an editor shows them).
#include <doctest/doctest.h>
#include <cmath>
#include <string>
#include "engine/ScalaFile.hpp"
#include "include/CAudioEngine.h"

using boop::scala::Mapping;
using boop::scala::parseMapping;
using boop::scala::parseScale;
using boop::scala::Scale;

namespace {

double cents(double ratio) { return 1200.0 * std::log2(ratio); }

std::string refused(const std::string& scl) {
    Scale scale;
    std::string why;
    CHECK_FALSE(parseScale(scl, scale, why));
    return why;
}

std::string refusedMapping(const std::string& kbm) {
    Mapping mapping;
    std::string why;
    CHECK_FALSE(parseMapping(kbm, mapping, why));
    return why;
}

}  // namespace

TEST_CASE("a scale's pitches: cents with a point, ratios and whole numbers as 1200 log2(ratio)") {
    Scale scale;
    std::string why;
    const std::string text =
        "! just.scl\n"
        "!\n"
        "Just major, with comments\n"
        " 5\n"
        "!\n"
        " 9/8\n"
        " 386.3137 the third, trailing words ignored\n"
        "3/2\r\n"
        " -13.5\n"
        " 2\n";
    REQUIRE(parseScale(text, scale, why));
    CHECK(scale.description == "Just major, with comments");
    REQUIRE(scale.cents.size() == 5);
    CHECK(scale.cents[0] == doctest::Approx(cents(9.0 / 8.0)).epsilon(1e-12));
    CHECK(scale.cents[1] == doctest::Approx(386.3137).epsilon(1e-12));
    CHECK(scale.cents[2] == doctest::Approx(cents(1.5)).epsilon(1e-12));
    CHECK(scale.cents[3] == doctest::Approx(-13.5).epsilon(1e-12));
    CHECK(scale.cents[4] == doctest::Approx(1200.0).epsilon(1e-12));
}

TEST_CASE("a scale's point forms: 100. and .5 are cents, 700 alone is a ratio") {
    Scale scale;
    std::string why;
    REQUIRE(parseScale("d\n3\n100.\n.5\n700\n", scale, why));
    CHECK(scale.cents[0] == doctest::Approx(100.0));
    CHECK(scale.cents[1] == doctest::Approx(0.5));
    CHECK(scale.cents[2] == doctest::Approx(cents(700.0)));
}

TEST_CASE("a scale refused names the line, comments counted") {
    CHECK(refused("") == "line 1: expected a description line, found the end of the file");
    CHECK(refused("d\n") == "line 1: expected the number of notes, found the end of the file");
    CHECK(refused("d\n0\n").rfind("line 2: expected the number of notes (1 to 4096), found \"0\"", 0) == 0);
    CHECK(refused("d\n4097\n").find("(1 to 4096)") != std::string::npos);
    CHECK(refused("d\n-3\n").find("found \"-3\"") != std::string::npos);
    CHECK(refused("d\n2\n100.0\n").rfind("line 3: expected 2 pitches, found 1 before the end", 0) == 0);
    CHECK(refused("! c\nd\n1\n!\n1e3\n").rfind("line 5: expected a pitch", 0) == 0);
    CHECK(refused("d\n1\n0/1\n").rfind("line 3: expected a pitch", 0) == 0);
    CHECK(refused("d\n1\n3/0\n").rfind("line 3: expected a pitch", 0) == 0);
    CHECK(refused("d\n1\n-3/2\n").rfind("line 3: expected a pitch", 0) == 0);
    CHECK(refused("d\n1\n.\n").rfind("line 3: expected a pitch", 0) == 0);
    CHECK(refused("d\n1\n1.2.3\n").rfind("line 3: expected a pitch", 0) == 0);
}

TEST_CASE("a refused field is shown quoted, bytes outside printable ASCII escaped, at most 40") {
    CHECK(refused("d\n1\nab\x01\n").find("found \"ab\\x01\"") != std::string::npos);
    const std::string why = refused("d\n1\n" + std::string(60, 'q') + "\n");
    CHECK(why.find("\"" + std::string(40, 'q') + "…\"") != std::string::npos);
}

TEST_CASE("a mapping's header numbers and degrees, blank lines and x") {
    Mapping mapping;
    std::string why;
    const std::string text =
        "! 7 of 12\n"
        "12\n0\n127\n60\n69\n440.0\n12\n"
        "! the degrees\n"
        "0\nx\n2\nX\n4\n5\nx\n7\nx\n9\nx\n11\n\n\n";
    REQUIRE(parseMapping(text, mapping, why));
    CHECK(mapping.size == 12);
    CHECK(mapping.firstKey == 0);
    CHECK(mapping.lastKey == 127);
    CHECK(mapping.middleKey == 60);
    CHECK(mapping.referenceKey == 69);
    CHECK(mapping.referenceHz == doctest::Approx(440.0));
    CHECK(mapping.octaveDegree == 12);
    const std::vector<int> degrees = {0, -1, 2, -1, 4, 5, -1, 7, -1, 9, -1, 11};
    CHECK(mapping.degrees == degrees);
}

TEST_CASE("a mapping with fewer entries than its size leaves the rest unmapped; size 0 has none") {
    Mapping mapping;
    std::string why;
    REQUIRE(parseMapping("3\n10\n20\n15\n15\n261.6\n0\n1\n", mapping, why));
    CHECK(mapping.degrees == std::vector<int>{1, -1, -1});
    REQUIRE(parseMapping("0\n0\n127\n60\n60\n1000\n0\n", mapping, why));
    CHECK(mapping.size == 0);
    CHECK(mapping.degrees.empty());
    CHECK(mapping.referenceHz == doctest::Approx(1000.0));
}

TEST_CASE("a mapping refused names the line and the range expected") {
    CHECK(refusedMapping("") == "line 1: expected the map size, found the end of the file");
    CHECK(refusedMapping("4097\n").rfind("line 1: expected the map size (0 to 4096)", 0) == 0);
    CHECK(refusedMapping("1\n128\n").rfind("line 2: expected the first key to retune (0 to 127)", 0) == 0);
    // The last key may not come before the first.
    CHECK(refusedMapping("1\n50\n49\n").rfind("line 3: expected the last key to retune (50 to 127)", 0) == 0);
    CHECK(refusedMapping("1\n0\n127\n60\n60\n0.001\n")
              .rfind("line 6: expected the reference frequency in Hz (0.01 to 1000000)", 0) == 0);
    CHECK(refusedMapping("1\n0\n127\n60\n60\n4e2\n").rfind("line 6: expected the reference frequency", 0) == 0);
    // A file that ends early is reported at its last line.
    CHECK(refusedMapping("1\n0\n127\n60\n60\n440\n") ==
          "line 6: expected the formal octave's degree, found the end of the file");
    CHECK(refusedMapping("1\n0\n127\n60\n60\n440\n1\n0\n1\n")
              .rfind("line 9: expected at most 1 mapping entries (the map size), found \"1\"", 0) == 0);
    CHECK(refusedMapping("2\n0\n127\n60\n60\n440\n1\n0\n-1\n").rfind("line 9: expected a scale degree", 0) == 0);
}

TEST_CASE("the most degrees a scale may hold is the header's limit") {
    std::string text = "d\n" + std::to_string(BOOP_TUNING_DEGREES_MAX) + "\n";
    for (int i = 1; i <= BOOP_TUNING_DEGREES_MAX; ++i) text += std::to_string(i) + ".0\n";
    Scale scale;
    std::string why;
    REQUIRE(parseScale(text, scale, why));
    CHECK(scale.cents.size() == static_cast<size_t>(BOOP_TUNING_DEGREES_MAX));
    CHECK(scale.cents.back() == doctest::Approx(BOOP_TUNING_DEGREES_MAX));
}
