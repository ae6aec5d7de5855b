// Tunings from Scala files (CAudioEngineKeys.h, "Tunings"): every key against the Scala
// arithmetic written out independently here, and every malformed line refused with its number.
#include <doctest/doctest.h>
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <string>
#include "TestSignals.hpp"

namespace {

struct Made {
    boop_tuning* tuning = nullptr;
    boop_status status = BOOP_OK;
    std::string why;
    ~Made() { boop_tuning_free(tuning); }
};

void make(Made& made, const std::string& scl, const char* kbm = nullptr) {
    char why[512] = "";
    std::string mapping = kbm ? kbm : "";
    made.status = boop_tuning_parse(scl.data(), scl.size(), kbm ? mapping.data() : nullptr, mapping.size(),
                                    &made.tuning, why, sizeof why);
    made.why = why;
}

double centsBetween(double a, double b) { return 1200.0 * std::log2(a / b); }

std::string equalScale(int steps) {
    std::string text = "! " + std::to_string(steps) + "edo.scl\n" + std::to_string(steps) + "-tone equal\n " +
                       std::to_string(steps) + "\n!\n";
    for (int i = 1; i <= steps; ++i) {
        char line[64];
        std::snprintf(line, sizeof line, " %.5f\n", 1200.0 * i / steps);
        text += line;
    }
    return text;
}

const char* kJust =
    "! ji-12.scl\n5-limit just intonation\n12\n!\n16/15\n9/8\n6/5\n5/4\n4/3\n45/32\n3/2\n8/5\n5/3\n9/5\n15/8\n2/1\n";
const double kJustRatios[] = {1.0,       16.0 / 15, 9.0 / 8, 6.0 / 5, 5.0 / 4, 4.0 / 3,
                              45.0 / 32, 3.0 / 2,   8.0 / 5, 5.0 / 3, 9.0 / 5, 15.0 / 8};

}  // namespace

TEST_CASE("12-tone equal temperament without a mapping is the engine's own tuning, A4 = 440 Hz") {
    Made made;
    make(made, equalScale(12));
    REQUIRE(made.status == BOOP_OK);
    CHECK(boop_tuning_degree_count(made.tuning) == 12);
    CHECK(std::string(boop_tuning_description(made.tuning)) == "12-tone equal");
    for (int key = 0; key < 128; ++key) {
        double expected = 440.0 * std::exp2((key - 69) / 12.0);
        CHECK(std::fabs(centsBetween(boop_tuning_key_hz(made.tuning, key), expected)) < 1e-6);
    }
    CHECK(boop_tuning_key_hz(made.tuning, -1) == 0.0);
    CHECK(boop_tuning_key_hz(made.tuning, 128) == 0.0);
    CHECK(boop_tuning_key_hz(nullptr, 60) == 0.0);
}

TEST_CASE("19-tone equal: degree 0 on middle C, one key per degree, 19 keys to the octave") {
    Made made;
    make(made, equalScale(19));
    REQUIRE(made.status == BOOP_OK);
    const double middle = 261.62556530059862;
    for (int key = 0; key < 128; ++key) {
        double expected = middle * std::exp2((key - 60) / 19.0);
        CHECK(std::fabs(centsBetween(boop_tuning_key_hz(made.tuning, key), expected)) < 1e-4);
    }
}

TEST_CASE("just intonation placed by a mapping: A4 = 440 Hz is degree 9 of a scale on C") {
    Made made;
    make(made, kJust, "! ji.kbm\n12\n0\n127\n60\n69\n440.0\n12\n0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n");
    REQUIRE(made.status == BOOP_OK);
    const double c4 = 440.0 / (5.0 / 3.0);
    for (int key = 0; key < 128; ++key) {
        int offset = key - 60;
        int octave = (offset >= 0 ? offset : offset - 11) / 12;
        double expected = c4 * std::exp2(octave) * kJustRatios[offset - 12 * octave];
        CHECK(std::fabs(centsBetween(boop_tuning_key_hz(made.tuning, key), expected)) < 1e-6);
    }
    CHECK(boop_tuning_key_hz(made.tuning, 64) == doctest::Approx(330.0).epsilon(1e-12));
}

TEST_CASE("a mapping's unmapped keys and its range to retune leave keys silent") {
    Made made;
    // A white-key pattern (x on the black keys), keys 48-84 only, formal octave of 7 degrees.
    const std::string diatonic = "diatonic\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n";
    make(made, diatonic, "12\n48\n84\n60\n60\n261.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n");
    REQUIRE(made.status == BOOP_OK);
    CHECK(boop_tuning_key_hz(made.tuning, 60) == doctest::Approx(261.0));
    CHECK(boop_tuning_key_hz(made.tuning, 61) == 0.0);
    CHECK(boop_tuning_key_hz(made.tuning, 62) == doctest::Approx(261.0 * 9 / 8));
    CHECK(boop_tuning_key_hz(made.tuning, 72) == doctest::Approx(522.0));
    CHECK(boop_tuning_key_hz(made.tuning, 71) == doctest::Approx(261.0 * 15 / 8));
    CHECK(boop_tuning_key_hz(made.tuning, 59) == doctest::Approx(261.0 * 15 / 16));
    CHECK(boop_tuning_key_hz(made.tuning, 47) == 0.0);
    CHECK(boop_tuning_key_hz(made.tuning, 85) == 0.0);
    CHECK(boop_tuning_key_hz(made.tuning, 84) == doctest::Approx(1044.0));
}

TEST_CASE("malformed scales are refused with the line and what was expected") {
    struct Case {
        const char* text;
        const char* why;
    };
    const Case cases[] = {
        {"", "line 1: expected a description line"},
        {"! only a comment\n", "line 1: expected a description line"},
        {"desc\n", "line 1: expected the number of notes, found the end"},
        {"desc\n0\n", "line 2: expected the number of notes (1 to 4096), found \"0\""},
        {"desc\n-3\n", "line 2: expected the number of notes (1 to 4096), found \"-3\""},
        {"desc\n4097\n", "line 2: expected the number of notes (1 to 4096)"},
        {"desc\n2\n100.0\n", "line 3: expected 2 pitches, found 1 before the end of the file"},
        {"desc\n1\n3/0\n", "line 3: expected a pitch"},
        {"desc\n1\n-3/2\n", "line 3: expected a pitch"},
        {"desc\n1\n0/2\n", "line 3: expected a pitch"},
        {"desc\n1\n0x10\n", "line 3: expected a pitch"},
        {"desc\n1\ninf.\n", "line 3: expected a pitch"},
        {"desc\n1\n1e3.\n", "line 3: expected a pitch"},
        {"desc\n1\n\n",
         "line 3: expected a pitch (cents with a period, as 701.955, or a positive ratio, as 3/2 or "
         "2), found \"\""},
        {"desc\n1\n\x1b]0;x\x07\n", "found \"\\x1b]0;x\\x07\""},
    };
    for (const Case& c : cases) {
        Made made;
        make(made, c.text);
        INFO(c.text);
        CHECK(made.status == BOOP_ERROR_INVALID_ARGUMENT);
        CHECK(made.tuning == nullptr);
        CHECK(made.why.find(c.why) != std::string::npos);
        CHECK(made.why.find('\n') == std::string::npos);
    }
}

TEST_CASE("Scala's forms are read: comments anywhere, CRLF, text after a value, cents and ratios") {
    Made made;
    make(made, "!a\r\n\r\n!b\r\n 3 notes follow\r\n!c\r\n 100.0 a comment\r\n3/2\t fifth\r\n2\r\n");
    REQUIRE(made.status == BOOP_OK);
    CHECK(std::string(boop_tuning_description(made.tuning)).empty());
    CHECK(boop_tuning_degree_count(made.tuning) == 3);
    const double middle = 261.62556530059862;
    CHECK(std::fabs(centsBetween(boop_tuning_key_hz(made.tuning, 61), middle) - 100.0) < 1e-9);
    CHECK(boop_tuning_key_hz(made.tuning, 62) == doctest::Approx(middle * 1.5));
    CHECK(boop_tuning_key_hz(made.tuning, 63) == doctest::Approx(middle * 2));
}

TEST_CASE("malformed mappings are refused, naming the mapping, the line and what was expected") {
    struct Case {
        const char* text;
        const char* why;
    };
    const Case cases[] = {
        {"12\n0\n127\n60\n69\n", "mapping, line 5: expected the reference frequency in Hz, found the end"},
        {"12\n0\n128\n60\n69\n440\n12\n", "mapping, line 3: expected the last key to retune (0 to 127)"},
        {"12\n64\n60\n60\n69\n440\n12\n", "mapping, line 3: expected the last key to retune (64 to 127)"},
        {"12\n0\n127\n60\n69\n-440\n12\n", "mapping, line 6: expected the reference frequency in Hz"},
        {"12\n0\n127\n60\n69\n0x1b8\n12\n", "mapping, line 6: expected the reference frequency in Hz"},
        {"2\n0\n127\n60\n60\n440\n12\n0\n1\n2\n", "mapping, line 10: expected at most 2 mapping entries"},
        {"2\n0\n127\n60\n60\n440\n12\n0\ny\n", "mapping, line 9: expected a scale degree (a whole number) or x"},
        {"2\n0\n127\n60\n61\n440\n12\n0\nx\n", "mapping, the reference key 61 is unmapped"},
    };
    for (const Case& c : cases) {
        Made made;
        make(made, equalScale(12), c.text);
        INFO(c.text);
        CHECK(made.status == BOOP_ERROR_INVALID_ARGUMENT);
        CHECK(made.why.find(c.why) != std::string::npos);
    }
}

TEST_CASE("files: a missing one is BOOP_ERROR_IO, one over 1 MiB is refused, a good one loads") {
    boop_tuning* tuning = nullptr;
    char why[256] = "";
    CHECK(boop_tuning_load("/nonexistent/x.scl", nullptr, &tuning, why, sizeof why) == BOOP_ERROR_IO);
    CHECK(tuning == nullptr);
    std::string path = "/tmp/boop-tuning-test-" + std::to_string(::getpid()) + ".scl";
    std::FILE* file = std::fopen(path.c_str(), "wb");
    REQUIRE(file);
    std::string big(BOOP_TUNING_FILE_BYTES_MAX + 1, '!');
    std::fwrite(big.data(), 1, big.size(), file);
    std::fclose(file);
    CHECK(boop_tuning_load(path.c_str(), nullptr, &tuning, why, sizeof why) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(why) == "expected a Scala file of at most 1 MiB");
    file = std::fopen(path.c_str(), "wb");
    REQUIRE(file);
    std::fputs(kJust, file);
    std::fclose(file);
    REQUIRE(boop_tuning_load(path.c_str(), nullptr, &tuning, why, sizeof why) == BOOP_OK);
    CHECK(boop_tuning_key_hz(tuning, 67) == doctest::Approx(261.62556530059862 * 1.5));
    boop_tuning_free(tuning);
    std::remove(path.c_str());
}
