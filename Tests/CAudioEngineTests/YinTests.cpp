// YIN pitch detector: accuracy on clean sines, octave safety on harmonic-rich tones, unvoiced
// results, and a cross-check against Debian's `aubiopitch -p yin` (a GPL test oracle run as a
// subprocess on WAV files written here; never linked).
#include <doctest/doctest.h>
#include <sndfile.h>
#include <unistd.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "AlsaTestSupport.hpp"
#include "dsp/Yin.hpp"
#include "include/CAudioEngine.h"

using namespace boop_test;

namespace {

// Band-limited additive tone: harmonic k has amplitude amps(k) (k = 1 ...), up to below Nyquist.
template <typename Amp>
std::vector<float> harmonicTone(double rate, double f0, double seconds, Amp amps, float peak = 0.5f) {
    std::vector<double> v(static_cast<size_t>(rate * seconds), 0.0);
    for (int k = 1; k * f0 < rate * 0.45; ++k) {
        const double a = amps(k);
        if (a == 0.0) continue;
        const double phase = 0.37 * k;  // non-aligned phases, as real instruments have
        for (size_t i = 0; i < v.size(); ++i) v[i] += a * std::sin(2.0 * M_PI * f0 * k * double(i) / rate + phase);
    }
    double m = 0;
    for (double x : v) m = std::max(m, std::fabs(x));
    std::vector<float> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<float>(peak * v[i] / m);
    return out;
}

// Medians of |cents error| over several phases/detunings of each frequency.
double medianErrorCents(boop::dsp::Yin& yin, double rate, double f, uint32_t window) {
    std::vector<double> errs;
    for (int k = 0; k < 9; ++k) {
        const double ff = f * std::pow(2.0, (k - 4) * 7.0 / 1200.0);  // ±28 cents around f
        auto s = sine(rate, ff, double(window) / rate, 0.5f, 0.61 * k);
        const auto r = yin.process(s.data(), static_cast<uint32_t>(s.size()));
        errs.push_back(r.frequency > 0 ? std::fabs(cents(r.frequency, ff)) : 1e9);
    }
    return median(errs);
}

bool writeWav(const std::string& path, const std::vector<float>& samples, int rate) {
    SF_INFO info{};
    info.samplerate = rate;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
    if (f == nullptr) return false;
    const sf_count_t n = sf_writef_float(f, samples.data(), static_cast<sf_count_t>(samples.size()));
    sf_close(f);
    return n == static_cast<sf_count_t>(samples.size());
}

std::vector<float> readWav(const std::string& path) {
    SF_INFO info{};
    SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
    if (f == nullptr) return {};
    std::vector<float> v(static_cast<size_t>(info.frames) * static_cast<size_t>(info.channels));
    sf_readf_float(f, v.data(), info.frames);
    sf_close(f);
    return v;
}

// aubiopitch's per-hop estimates (Hz; 0 = unvoiced) for a file.
std::vector<double> aubioYin(const std::string& path, int rate, int buf, int hop) {
    std::ostringstream cmd;
    cmd << "aubiopitch -p yin -u Hz -l 0.15 -s -60 -r " << rate << " -B " << buf << " -H " << hop << " -i '" << path
        << "' 2>/dev/null";
    int status = 0;
    const std::string out = runAndCapture(cmd.str(), &status);
    std::vector<double> f;
    std::istringstream in(out);
    double t, hz;
    while (in >> t >> hz) f.push_back(hz);
    return f;
}

}  // namespace

TEST_CASE("yin: clean sines at 16 kHz, 2048-frame windows — sub-cent below 1 kHz, < 3 cents to 4 kHz") {
    boop::dsp::Yin yin;
    yin.prepare(16000, 2048);
    double worstLow = 0, worstHigh = 0;
    for (double f = 55.0; f <= 4000.0; f *= std::pow(2.0, 1.0 / 4.0)) {  // every 3 semitones, A1 ...
        const double e = medianErrorCents(yin, 16000, f, 2048);
        if (f < 1000.0) {
            worstLow = std::max(worstLow, e);
            CHECK_MESSAGE(e < 0.5, f << " Hz: median error " << e << " cents");
        } else {
            worstHigh = std::max(worstHigh, e);
            CHECK_MESSAGE(e < 3.0, f << " Hz: median error " << e << " cents");
        }
    }
    MESSAGE("worst median error: " << worstLow << " cents below 1 kHz, " << worstHigh << " cents 1-4 kHz");
}

TEST_CASE("yin: clean sines at 44.1 kHz, 4096-frame windows") {
    boop::dsp::Yin yin;
    yin.prepare(44100, 4096);
    for (double f : {27.5 * 2, 110.0, 261.63, 440.0, 987.77, 2093.0, 4186.0, 8000.0}) {
        const double e = medianErrorCents(yin, 44100, f, 4096);
        CHECK_MESSAGE(e < (f < 1000 ? 0.5 : 3.0), f << " Hz: median error " << e << " cents");
    }
}

TEST_CASE("yin: harmonic-rich tones give the fundamental, never an octave off") {
    boop::dsp::Yin yin;
    yin.prepare(16000, 2048);
    struct Kind {
        const char* name;
        double (*amp)(int);
    };
    const Kind kinds[] = {
        {"sawtooth", [](int k) { return 1.0 / k; }},
        {"square", [](int k) { return k % 2 ? 1.0 / k : 0.0; }},
        {"strong 2nd harmonic", [](int k) { return k == 1   ? 0.4
                                                   : k == 2 ? 1.0
                                                   : k == 3 ? 0.5
                                                            : 0.0; }},
        {"weak fundamental", [](int k) { return k == 1 ? 0.15 : 1.0 / std::sqrt(double(k)); }},
        {"brass-like", [](int k) { return k <= 8 ? 1.0 : 8.0 / k; }},
    };
    int checked = 0;
    for (const Kind& kind : kinds) {
        for (double f : {65.41, 98.0, 146.83, 220.0, 329.63, 440.0, 659.26, 880.0, 1318.5}) {
            auto s = harmonicTone(16000, f, 2048.0 / 16000.0, kind.amp);
            const auto r = yin.process(s.data(), static_cast<uint32_t>(s.size()));
            REQUIRE_MESSAGE(r.frequency > 0, std::string(kind.name) << " at " << f << " Hz came out unvoiced");
            const double c = cents(r.frequency, f);
            CHECK_MESSAGE(std::fabs(c) < 5.0,
                          std::string(kind.name) << " at " << f << " Hz: " << r.frequency << " Hz (" << c << " cents)");
            ++checked;
        }
    }
    MESSAGE(checked << " harmonic-rich tones checked against their fundamental (5-cent bound)");
}

TEST_CASE("yin: unvoiced in silence, noise, and outside the range") {
    boop::dsp::Yin yin;
    yin.prepare(16000, 2048);
    std::vector<float> zeros(2048, 0.0f);
    CHECK(yin.process(zeros.data(), 2048).frequency == 0.0);

    auto quiet = sine(16000, 440, 0.128, 0.0003f);  // about −73 dBFS RMS: below the −60 dB gate
    CHECK(yin.process(quiet.data(), 2048).frequency == 0.0);
    yin.setSilenceThreshold(-90);
    CHECK(yin.process(quiet.data(), 2048).frequency == doctest::Approx(440).epsilon(0.001));
    yin.setSilenceThreshold(-60);

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    int voiced = 0;
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<float> noise(2048);
        for (float& x : noise) x = u(rng);
        if (yin.process(noise.data(), 2048).frequency > 0) ++voiced;
    }
    CHECK(voiced == 0);

    auto low = sine(16000, 30, 0.128);  // below the default 40 Hz
    CHECK(yin.process(low.data(), 2048).frequency == 0.0);
    auto high = sine(16000, 5000, 0.128);  // above 16000 / 4
    const double fh = yin.process(high.data(), 2048).frequency;
    CHECK((fh == 0.0 || std::fabs(cents(fh, 5000)) < 5.0));  // never a sub-octave of it

    std::vector<float> nanBuf(2048, std::nanf(""));
    CHECK(yin.process(nanBuf.data(), 2048).frequency == 0.0);
}

TEST_CASE("yin: silence then an A4, buffer by buffer as `boop listen` sees it — no reading far from A4") {
    // The onset falls at every position in a buffer: the buffers before it are silent, the one
    // holding it is partly silent, the ones after are full of tone. A partly filled buffer once
    // read as a confident C7 (+33 cents).
    const double rate = 16000;
    const uint32_t window = 2048;
    boop::dsp::Yin yin;
    yin.prepare(rate, window);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> hiss(-1.0f, 1.0f);
    for (const float noiseFloor : {0.0f, 0.0003f}) {  // digital silence, and a −73 dBFS hiss
        for (const auto& tone :
             {sine(rate, 440, 1.0, 0.5f, 0.3), harmonicTone(rate, 440, 1.0, [](int k) { return 1.0 / k; })}) {
            int voiced = 0, far = 0;
            for (uint32_t onset = 0; onset < 3 * window; onset += 16) {
                // Two silent buffers, then the tone from `onset` on; the buffers around the onset.
                std::vector<float> signal(4 * window, 0.0f);
                for (float& x : signal) x = noiseFloor * hiss(rng);
                for (uint32_t i = onset; i < signal.size(); ++i) signal[i] += tone[i - onset];
                const uint32_t first = (onset / window) * window;
                for (uint32_t at = first; at + window <= signal.size() && at <= first + window; at += window) {
                    const auto r = yin.process(signal.data() + at, window);
                    if (r.frequency <= 0) continue;
                    ++voiced;
                    if (std::fabs(cents(r.frequency, 440)) > 5.0) {
                        ++far;
                        MESSAGE("onset " << onset << ", buffer at " << at << ": " << r.frequency << " Hz");
                    }
                }
            }
            CHECK(far == 0);
            CHECK(voiced > 300);  // the full buffers after the onset are all read
        }
    }
}

TEST_CASE("yin: a shorter buffer than the window and the C API agree with the class") {
    boop_pitch_detector* d = nullptr;
    REQUIRE(boop_pitch_detector_create(16000, 2048, 0, 0, &d) == BOOP_OK);
    auto s = sine(16000, 261.63, 0.2);
    const boop_pitch_result r = boop_pitch_detector_process(d, s.data(), static_cast<uint32_t>(s.size()));
    CHECK(std::fabs(cents(r.frequency_hz, 261.63)) < 0.1);
    CHECK(r.confidence > 0.9);
    const boop_pitch_result shortR = boop_pitch_detector_process(d, s.data(), 1024);
    CHECK(std::fabs(cents(shortR.frequency_hz, 261.63)) < 0.5);
    boop_pitch_detector_destroy(d);

    boop_pitch_detector* bad = nullptr;
    CHECK(boop_pitch_detector_create(16000, 16, 0, 0, &bad) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(boop_pitch_detector_create(16000, 2048, 500, 100, &bad) == BOOP_ERROR_INVALID_ARGUMENT);
    CHECK(bad == nullptr);
}

struct OracleCase {
    std::string name;
    double f;
    bool harmonic;
};

// The case's tone written to a WAV file in dir, and the median frequency our Yin and aubiopitch's
// yin read from that file, hop by hop.
static void oracleMedians(const OracleCase& c, const std::string& dir, boop::dsp::Yin& yin, int rate, int buf,
                          double& oursMed, double& theirsMed) {
    const std::vector<float> samples =
        c.harmonic ? harmonicTone(rate, c.f, 1.0, [](int k) { return 1.0 / k; }) : sine(rate, c.f, 1.0, 0.5f, 0.2);
    const std::string path = dir + "/" + c.name + "-" + std::to_string(int(c.f * 100)) + ".wav";
    REQUIRE(writeWav(path, samples, rate));
    const std::vector<float> back = readWav(path);  // exactly what aubio reads
    REQUIRE(back.size() == samples.size());
    std::vector<double> ours;
    for (size_t start = buf; start + buf <= back.size(); start += buf) {
        const auto r = yin.process(back.data() + start, buf);
        ours.push_back(r.frequency);
    }
    std::vector<double> theirs = aubioYin(path, rate, buf, buf);
    REQUIRE_MESSAGE(theirs.size() >= 4, "aubiopitch printed no estimates for " << path);
    theirs.erase(theirs.begin(), theirs.begin() + 2);  // its first hops see the zero-padded start
    oursMed = median(ours);
    theirsMed = median(theirs);
}

TEST_CASE("yin: cross-check against the aubiopitch -p yin oracle on the same WAV files") {
    int status = 0;
    runAndCapture("command -v aubiopitch >/dev/null 2>&1", &status);
    REQUIRE_MESSAGE(status == 0, "aubiopitch (Debian aubio-tools) is the test oracle and must be installed");

    const std::string dir = "/tmp/boop-yin-oracle-" + std::to_string(getpid());
    runAndCapture("mkdir -p '" + dir + "'");
    const int rate = 16000, buf = 2048;
    boop::dsp::Yin yin;
    yin.prepare(rate, buf);

    std::vector<OracleCase> cases;
    for (double f : {82.41, 110.0, 196.0, 261.63, 440.0, 493.88, 659.26, 880.0, 1174.66, 1760.0, 2637.0, 3520.0})
        cases.push_back({"sine", f, false});
    for (double f : {98.0, 220.0, 440.0, 784.0}) cases.push_back({"sawtooth", f, true});

    double oursWorstLow = 0, aubioWorstLow = 0;
    int oracleOctaveErrors = 0;
    std::ostringstream table;
    table << "\n  tone        Hz        ours(cents)  aubio(cents)";
    for (const OracleCase& c : cases) {
        double oursMed = 0, theirsMed = 0;
        oracleMedians(c, dir, yin, rate, buf, oursMed, theirsMed);
        REQUIRE(oursMed > 0);
        REQUIRE(theirsMed > 0);
        const double oursErr = cents(oursMed, c.f), theirsErr = cents(theirsMed, c.f);
        table << "\n  " << c.name << (c.harmonic ? "  " : "      ") << c.f << "\t" << oursErr << "\t" << theirsErr;

        // Same note as the oracle wherever the oracle itself is right (aubio's yin makes octave
        // errors on high sines, where a period spans a few samples; those are counted, not
        // held against us), and at least as accurate everywhere.
        if (std::fabs(theirsErr) < 50.0) {
            CHECK_MESSAGE(std::fabs(cents(oursMed, theirsMed)) < 50.0,
                          c.name << " " << c.f << " Hz: ours " << oursMed << " vs aubio " << theirsMed);
        } else {
            ++oracleOctaveErrors;
        }
        CHECK_MESSAGE(std::fabs(oursErr) <= std::fabs(theirsErr) + 0.05,
                      c.name << " " << c.f << " Hz: ours " << oursErr << " cents, aubio " << theirsErr << " cents");
        if (!c.harmonic && c.f < 1000) {
            oursWorstLow = std::max(oursWorstLow, std::fabs(oursErr));
            aubioWorstLow = std::max(aubioWorstLow, std::fabs(theirsErr));
        }
    }
    MESSAGE("median pitch error vs truth:" << table.str());
    MESSAGE("aubio yin octave errors: " << oracleOctaveErrors << " of " << cases.size() << " files");
    MESSAGE("sines below 1 kHz, worst median error: ours " << oursWorstLow << " cents, aubio yin " << aubioWorstLow
                                                           << " cents");
    runAndCapture("rm -rf '" + dir + "'");
}
