// boop.lv2 in an offline host (lilv, the bundle from the build folder through LV2_PATH): the
// ports a host sees, the latency it reports, every note starting on its event's frame plus that
// latency at any block size and offset (jitter 0), in tune, the controls, the channel setup
// kept through LV2 state, and a Scala tuning set through the worker and kept through the state. Prints what it measured
// (scripts/jack-tests.sh shows it).
#include <doctest/doctest.h>
#include <lilv/lilv.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "Lv2Host.hpp"
#include "ToneFit.hpp"

using lv2host::Host;
using lv2host::MidiEvent;

namespace {

lv2host::World& world() {
    static lv2host::World w;
    return w;
}

// The first frame at or after `from` where the two signals differ (a.size() when none).
std::size_t firstDifference(const std::vector<float>& a, const std::vector<float>& b, std::size_t from = 0) {
    for (std::size_t i = from; i < a.size(); ++i)
        if (a[i] != b[i]) return i;
    return a.size();
}

std::size_t firstNonZero(const std::vector<float>& a) { return firstDifference(a, std::vector<float>(a.size())); }

MidiEvent noteOn(uint64_t frame, uint8_t key, uint8_t channel = 0, uint8_t velocity = 100) {
    return MidiEvent{frame, {uint8_t(0x90 | channel), key, velocity}};
}

double rms(const std::vector<float>& x, std::size_t begin, std::size_t end) {
    double s = 0;
    for (std::size_t i = begin; i < end; ++i) s += double(x[i]) * x[i];
    return std::sqrt(s / double(end - begin));
}

}  // namespace

TEST_CASE("the bundle loads with its ports and reports the output stage's look-ahead as latency") {
    REQUIRE_MESSAGE(world().plugin != nullptr, "boop.lv2 not found on LV2_PATH");
    CHECK(lilv_plugin_get_num_ports(world().plugin) == 9);
    for (const char* symbol :
         {"midi_in", "out_1", "out_2", "voice", "gain", "bend_range", "volume", "latency", "notify"})
        CHECK_MESSAGE(world().port(symbol) != UINT32_MAX, symbol);
    CHECK(lilv_plugin_has_latency(world().plugin));
    CHECK(lilv_plugin_get_latency_port_index(world().plugin) == world().port("latency"));
    lv2host::UridMap urids;
    for (double rate : {44100.0, 48000.0, 96000.0}) {
        Host host(world(), urids, rate);
        REQUIRE(host.ok());
        std::vector<float> l, r;
        host.render({}, 64, 64, l, r);
        // The limiter's look-ahead: 83 frames at 44.1 kHz and 89 at 48 kHz (README).
        const float latency = host.get("latency");
        std::printf("boop.lv2 at %.0f Hz: latency port %.0f frames\n", rate, latency);
        if (rate != 96000.0) CHECK(latency == (rate == 44100.0 ? 83.0f : 89.0f));
        CHECK(latency > 0.0f);
        CHECK(firstNonZero(l) == l.size());
    }
}

TEST_CASE("each note starts on its event's frame plus the reported latency, at any block size") {
    lv2host::UridMap urids;
    for (const auto& run : {std::pair{48000.0, 64u}, {48000.0, 256u}, {48000.0, 1024u}, {96000.0, 256u}}) {
        const double rate = run.first;
        const uint32_t block = run.second;
        // Notes at chosen offsets within their blocks, each in a fresh instance, so that silence
        // before the onset is exact and the first non-zero sample marks it.
        for (uint64_t frame : {0ull, 1ull, 37ull, 63ull, 200ull, 255ull, 1000ull, 4097ull}) {
            Host host(world(), urids, rate);
            REQUIRE(host.ok());
            std::vector<float> l, r;
            host.render({noteOn(frame, 69)}, frame + 2048, block, l, r);
            const auto latency = static_cast<std::size_t>(host.get("latency"));
            // The envelope's first sample is 0: the first non-zero one is the frame after.
            const std::size_t onset = firstNonZero(l);
            INFO("rate ", rate, ", block ", block, ", event at frame ", frame);
            CHECK(onset == frame + latency + 1);
            CHECK(firstNonZero(r) == onset);
            std::printf("%.0f Hz, block %4u: note at frame %4llu -> first sound at %4zu (event + %zu)\n", rate, block,
                        static_cast<unsigned long long>(frame), onset, onset - frame);
        }
    }
}

TEST_CASE("notes inside one block each start on their own frame") {
    // A second note added to the same block changes the output first exactly latency + 1
    // frames after its own event: it was applied on its frame, not at the block's start or end.
    lv2host::UridMap urids;
    for (uint64_t second : {130ull, 200ull, 511ull}) {
        Host a(world(), urids, 48000.0), b(world(), urids, 48000.0);
        REQUIRE((a.ok() && b.ok()));
        std::vector<float> la, ra, lb, rb;
        a.render({noteOn(100, 60)}, 4096, 512, la, ra);
        b.render({noteOn(100, 60), noteOn(second, 67)}, 4096, 512, lb, rb);
        const auto latency = static_cast<std::size_t>(b.get("latency"));
        CHECK(firstDifference(la, lb) == second + latency + 1);
    }
}

TEST_CASE("notes are in tune (least-squares sine fit, tone voice)") {
    lv2host::UridMap urids;
    const double rate = 48000.0;
    for (uint8_t key : {48, 57, 69, 72, 84}) {
        Host host(world(), urids, rate);
        REQUIRE(host.ok());
        host.set("voice", 3);  // tone: the pure sine
        std::vector<float> l, r;
        host.render({noteOn(0, key)}, 48000, 256, l, r);
        const double expected = 440.0 * std::exp2((key - 69) / 12.0);
        const tonefit::Fit fit = tonefit::fitSine(l, rate, 9600, 33600, expected);
        const double cents = tonefit::cents(fit.frequency, expected);
        std::printf("key %d: %.6f Hz, %+.6f cent\n", key, fit.frequency, cents);
        CHECK(std::fabs(cents) < 0.01);
        CHECK(l == r);  // the voices are centred: the same signal on both outputs
    }
}

TEST_CASE("the gain, volume and bend-range controls") {
    lv2host::UridMap urids;
    auto level = [&](const char* symbol, float value, std::vector<MidiEvent> events) {
        Host host(world(), urids, 48000.0);
        REQUIRE(host.ok());
        host.set("voice", 3);
        if (symbol != nullptr) host.set(symbol, value);
        std::vector<float> l, r;
        host.render(std::move(events), 24000, 256, l, r);
        return l;
    };
    const std::vector<float> base = level(nullptr, 0, {noteOn(0, 69)});
    const double unity = rms(base, 12000, 24000);
    const double gain6 = 20 * std::log10(rms(level("gain", -6.0f, {noteOn(0, 69)}), 12000, 24000) / unity);
    const double volume50 = rms(level("volume", 50.0f, {noteOn(0, 69)}), 12000, 24000) / unity;
    std::printf("gain -6: %.4f dB; volume 50: x%.4f (CC 7: (50/100)^2 = 0.25)\n", gain6, volume50);
    CHECK(std::fabs(gain6 + 6.0) < 0.001);
    CHECK(std::fabs(volume50 - 0.25) < 0.001);
    // A full bend up at a 12-semitone range: A5.
    const MidiEvent bend{0, {0xE0, 0x7F, 0x7F}};
    const std::vector<float> bent = level("bend_range", 12.0f, {bend, noteOn(0, 69)});
    const double hz = tonefit::fitSine(bent, 48000.0, 9600, 21600, 880.0).frequency;
    std::printf("bend range 12, full bend up on A4: %.4f Hz\n", hz);
    CHECK(std::fabs(tonefit::cents(hz, 440.0 * std::exp2(12.0 * 8191.0 / 8192.0 / 12.0))) < 0.01);
}

TEST_CASE("the channel setup is saved and restored through LV2 state") {
    lv2host::UridMap urids;
    Host first(world(), urids, 48000.0);
    REQUIRE(first.ok());
    std::vector<float> l1, r1;
    // Program changes: channel 2 to drums (4), channel 5 to bass (2).
    first.render({{0, {0xC1, 4, 0}, 2}, {0, {0xC4, 2, 0}, 2}}, 256, 256, l1, r1);
    LilvState* state = lilv_state_new_from_instance(world().plugin, first.instance(), &urids.map, nullptr, nullptr,
                                                    nullptr, nullptr, nullptr, nullptr, 0, first.features());
    REQUIRE(state != nullptr);
    char* text = lilv_state_to_string(world().world, &urids.map, &urids.unmap, state, "urn:boop:test", nullptr);
    REQUIRE(text != nullptr);
    CHECK(std::strstr(text, "melody drums bass melody bass melody melody melody melody drums") != nullptr);
    lilv_free(text);

    Host restored(world(), urids, 48000.0), plain(world(), urids, 48000.0);
    REQUIRE((restored.ok() && plain.ok()));
    lilv_state_restore(state, restored.instance(), nullptr, nullptr, 0, restored.features());
    lilv_state_free(state);
    restored.render({}, 256, 256, l1, r1);  // all three on the same frame from here
    plain.render({}, 256, 256, l1, r1);
    // Key 38 (snare) on channel 2 and key 45 on channel 5: drums and bass after the restore,
    // chords and melody without it.
    const std::vector<MidiEvent> notes{noteOn(0, 38, 1), noteOn(0, 45, 4)};
    std::vector<float> lr, rr, lp, rp, lf, rf;
    restored.render(notes, 9600, 256, lr, rr);
    plain.render(notes, 9600, 256, lp, rp);
    first.render({noteOn(0, 38, 1), noteOn(0, 45, 4)}, 9600, 256, lf, rf);
    CHECK(lr != lp);
    CHECK(lr == lf);  // the same sound as the instance the state came from
}

TEST_CASE("the palette's voices by the voice port and program changes; CC 10 pans them") {
    lv2host::UridMap urids;
    Host host(world(), urids, 48000.0);
    REQUIRE(host.ok());
    host.set("voice", 5);  // the palette's sine
    std::vector<float> l, r;
    // Channel 2 to the palette's saw (program 8), panned hard left; channel 1's sine centred.
    host.render({noteOn(0, 69), MidiEvent{0, {0xC1, 8, 0}, 2}, MidiEvent{0, {0xB1, 10, 0}}, noteOn(24000, 45, 1)},
                48000, 256, l, r);
    const tonefit::Fit fit = tonefit::fitSine(l, 48000.0, 4800, 19200, 440.0);
    CHECK(std::fabs(tonefit::cents(fit.frequency, 440.0)) < 0.01);
    CHECK(rms(l, 4800, 19200) == doctest::Approx(rms(r, 4800, 19200)));
    // The same without the saw: the right side is unchanged (hard left: nothing of it on the right).
    Host alone(world(), urids, 48000.0);
    REQUIRE(alone.ok());
    alone.set("voice", 5);
    std::vector<float> al, ar;
    alone.render({noteOn(0, 69)}, 48000, 256, al, ar);
    CHECK(rms(r, 33600, 48000) == doctest::Approx(rms(ar, 33600, 48000)).epsilon(1e-6));
    CHECK(rms(l, 33600, 48000) > 1.2 * rms(al, 33600, 48000));
}

namespace {

constexpr const char* kScaleProperty = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#scl";
constexpr const char* kMappingProperty = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#kbm";

// A folder of its own for the test's Scala files, removed at the end.
struct ScalaFiles {
    std::string dir;
    ScalaFiles() {
        char name[] = "/tmp/boop-lv2-tuning-XXXXXX";
        if (mkdtemp(name) != nullptr) dir = name;
    }
    ~ScalaFiles() {
        for (const char* file : {"/19edo.scl", "/a440.kbm"}) std::remove((dir + file).c_str());
        rmdir(dir.c_str());
    }
    std::string write(const char* file, const std::string& text) const {
        const std::string path = dir + file;
        std::FILE* f = std::fopen(path.c_str(), "w");
        REQUIRE(f != nullptr);
        std::fputs(text.c_str(), f);
        std::fclose(f);
        return path;
    }
};

// The frequency the tone voice plays for `key` on a host set up by `prepare` (its worker answered).
double playedHz(Host& host, int key, double expected) {
    std::vector<float> l, r;
    host.render({noteOn(0, static_cast<uint8_t>(key))}, 48000, 256, l, r);
    return tonefit::fitSine(l, 48000.0, 9600, 33600, expected).frequency;
}

// The largest error of keys 50 ... 88 played in fresh instances restored from `state`, from
// A4 = 440 Hz with 19 steps an octave (the Scala arithmetic of 19edo.scl with a440.kbm).
double worstRestored(const LilvState* state, lv2host::UridMap& urids) {
    double worst = 0;
    for (int key : {50, 55, 60, 64, 69, 72, 79, 88}) {
        Host restored(world(), urids, 48000.0);
        REQUIRE(restored.ok());
        restored.set("voice", 3);
        lilv_state_restore(state, restored.instance(), nullptr, nullptr, 0, restored.features());
        const double expected = 440.0 * std::exp2((key - 69) / 19.0);
        const double hz = playedHz(restored, key, expected);
        const double cents = tonefit::cents(hz, expected);
        std::printf("restored 19-EDO + a440.kbm, key %d: %.6f Hz (Scala %.6f), %+.6f cent\n", key, hz, expected, cents);
        worst = std::max(worst, std::fabs(cents));
    }
    return worst;
}

}  // namespace

TEST_CASE("a Scala tuning set by patch:Set (read by the worker) and kept through LV2 state") {
    ScalaFiles files;
    REQUIRE(!files.dir.empty());
    std::string scl = "! 19edo.scl\n19-tone equal temperament\n19\n";
    for (int i = 1; i < 19; ++i) {
        char cents[32];
        std::snprintf(cents, sizeof cents, "%.10f\n", 1200.0 * i / 19);
        scl += cents;
    }
    scl += "2/1\n";
    const std::string sclPath = files.write("/19edo.scl", scl);
    // A4 = 440 Hz on key 69 (degree 9 above the middle key 60), consecutive keys.
    const std::string kbmPath = files.write("/a440.kbm", "! a440.kbm\n0\n0\n127\n60\n69\n440.0\n19\n");
    const double c4 = 261.6255653;  // Scala's default middle C, without a mapping
    lv2host::UridMap urids;

    Host setUp(world(), urids, 48000.0);
    REQUIRE(setUp.ok());
    setUp.set("voice", 3);
    setUp.setPath(kScaleProperty, sclPath);
    std::vector<float> l, r;
    setUp.render({}, 256, 256, l, r);  // the worker reads the file after this block
    const double e4 = c4 * std::exp2(4.0 / 19);
    const double heard = playedHz(setUp, 64, e4);
    std::printf("boop.lv2, 19-EDO by patch:Set, key 64: %.6f Hz, %+.6f cent\n", heard, tonefit::cents(heard, e4));
    CHECK(std::fabs(tonefit::cents(heard, e4)) < 0.01);
    // A file that makes no tuning changes nothing.
    setUp.setPath(kScaleProperty, files.dir + "/missing.scl");
    setUp.setPath(kMappingProperty, kbmPath);
    setUp.render({}, 256, 256, l, r);

    LilvState* saved = lilv_state_new_from_instance(world().plugin, setUp.instance(), &urids.map, nullptr, nullptr,
                                                    nullptr, nullptr, nullptr, nullptr, 0, setUp.features());
    REQUIRE(saved != nullptr);
    char* text = lilv_state_to_string(world().world, &urids.map, &urids.unmap, saved, "urn:boop:tuning", nullptr);
    lilv_state_free(saved);
    REQUIRE(text != nullptr);
    CHECK(std::strstr(text, "19edo.scl") != nullptr);
    CHECK(std::strstr(text, "a440.kbm") != nullptr);
    LilvState* state = lilv_state_new_from_string(world().world, &urids.map, text);
    lilv_free(text);
    REQUIRE(state != nullptr);

    // Each key in a fresh instance restored from the saved text: A4 = 440 Hz, 19 steps an octave.
    const double worst = worstRestored(state, urids);
    lilv_state_free(state);
    CHECK(worst < 0.01);

    // An empty scale path: back to 12-tone equal temperament (a fresh instance: no note sounding).
    Host cleared(world(), urids, 48000.0);
    REQUIRE(cleared.ok());
    cleared.set("voice", 3);
    cleared.setPath(kScaleProperty, sclPath);
    cleared.render({}, 256, 256, l, r);
    cleared.setPath(kScaleProperty, "");
    cleared.render({}, 256, 256, l, r);
    const double c5 = playedHz(cleared, 72, 523.2511306011972);
    CHECK(std::fabs(tonefit::cents(c5, 523.2511306011972)) < 0.01);
}
