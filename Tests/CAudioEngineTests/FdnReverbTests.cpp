#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "dsp/FdnReverb.hpp"
#include "dsp/Rng.hpp"
#include "rt/Denormals.hpp"

using boop::dsp::FdnReverb;

namespace {
void run(FdnReverb& rv, const std::vector<float>& inL, const std::vector<float>& inR, std::vector<float>& l,
         std::vector<float>& r, int block = 64) {
    l.assign(inL.size(), 0.0f);
    r.assign(inL.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < inL.size(); i += static_cast<size_t>(block)) {
        const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(block), inL.size() - i));
        rv.process(inL.data() + i, inR.data() + i, l.data() + i, r.data() + i, n);
    }
}

// RT60 from the Schroeder backward-integrated energy decay curve, fitted between -5 and -25 dB
// (T20) and extrapolated to 60 dB.
double rt60(const std::vector<float>& l, const std::vector<float>& r, double rate) {
    std::vector<double> edc(l.size());
    double acc = 0;
    for (size_t i = l.size(); i-- > 0;) {
        acc += double(l[i]) * l[i] + double(r[i]) * r[i];
        edc[i] = acc;
    }
    const double total = edc[0];
    double t5 = -1, t25 = -1;
    for (size_t i = 0; i < edc.size(); ++i) {
        const double db = 10.0 * std::log10(edc[i] / total);
        if (t5 < 0 && db <= -5.0) t5 = i / rate;
        if (t25 < 0 && db <= -25.0) {
            t25 = i / rate;
            break;
        }
    }
    return (t25 - t5) * 3.0;
}
}  // namespace

TEST_CASE("FdnReverb impulse response: nothing before the shortest line, then a dense stereo tail") {
    const double rate = 48000.0;
    FdnReverb rv;
    rv.prepare(rate);
    rv.setSize(0.5f);
    rv.setDecay(2.0);
    rv.setDamping(0.2f);
    std::vector<float> inL(96000, 0.0f), inR(96000, 0.0f), l, r;
    inL[0] = 1.0f;
    inR[0] = 1.0f;
    run(rv, inL, inR, l, r);
    int shortest = rv.lineLength(0);
    for (int i = 1; i < FdnReverb::kLines; ++i) shortest = std::min(shortest, rv.lineLength(i));
    CHECK(ambtest::rms(l, 0, static_cast<size_t>(shortest) - 1) == 0.0);
    CHECK(ambtest::rms(l, 4800, 9600) > 1e-3);
    CHECK(ambtest::rms(r, 4800, 9600) > 1e-3);
    // Left and right are decorrelated, which is what makes the tail wide.
    double lr = 0, ll = 0, rr = 0;
    for (size_t i = 4800; i < 48000; ++i) {
        lr += double(l[i]) * r[i];
        ll += double(l[i]) * l[i];
        rr += double(r[i]) * r[i];
    }
    CHECK(std::fabs(lr / std::sqrt(ll * rr)) < 0.5);
    // Density: by 100 ms most samples are non-zero.
    int zeros = 0;
    for (size_t i = 4800; i < 9600; ++i) zeros += std::fabs(l[i]) < 1e-9f ? 1 : 0;
    CHECK(zeros < 480);
}

TEST_CASE("FdnReverb energy decays at the set RT60") {
    const double rate = 44100.0;
    for (double decay : {0.8, 2.0, 5.0}) {
        for (float size : {0.2f, 0.9f}) {
            FdnReverb rv;
            rv.prepare(rate);
            rv.setSize(size);
            rv.setDecay(decay);
            rv.setDamping(0.0f);
            const size_t n = static_cast<size_t>(rate * decay * 1.5);
            std::vector<float> inL(n, 0.0f), inR(n, 0.0f), l, r;
            inL[0] = 1.0f;
            run(rv, inL, inR, l, r);
            const double measured = rt60(l, r, rate);
            CHECK_MESSAGE(measured == doctest::Approx(decay).epsilon(0.2), "decay " << decay << " size " << size);
        }
    }
}

TEST_CASE("FdnReverb damping shortens the tail") {
    auto measure = [](float damping) {
        FdnReverb rv;
        rv.prepare(44100.0);
        rv.setSize(0.6f);
        rv.setDecay(3.0);
        rv.setDamping(damping);
        std::vector<float> inL(44100 * 4, 0.0f), inR(44100 * 4, 0.0f), l, r;
        inL[0] = inR[0] = 1.0f;
        run(rv, inL, inR, l, r);
        return rt60(l, r, 44100.0);
    };
    CHECK(measure(0.8f) < 0.8 * measure(0.0f));
}

TEST_CASE("FdnReverb stays finite and bounded with the longest decay on loud noise") {
    FdnReverb rv;
    rv.prepare(44100.0);
    rv.setSize(1.0f);
    rv.setDecay(1000.0);  // clamped to 100 s
    rv.setDamping(0.0f);
    boop::dsp::Rng rng(9);
    std::vector<float> inL(44100 * 10), inR(44100 * 10), l, r;
    for (size_t i = 0; i < inL.size(); ++i) {
        inL[i] = rng.bipolar();
        inR[i] = rng.bipolar();
    }
    run(rv, inL, inR, l, r, 33);
    CHECK(ambtest::nonFinite(l) == 0);
    CHECK(ambtest::nonFinite(r) == 0);
    // A lossless-ish network accumulates energy: bounded by the input energy it has received.
    CHECK(ambtest::rms(l, l.size() - 44100, l.size()) < 100.0);
}

// What the dying tail costs is measured by bench/FdnReverbTailBench (a timing, not a unit test).
TEST_CASE("FdnReverb: block-size independence, reset, and no subnormals in a dying tail") {
    FdnReverb a, b;
    for (FdnReverb* rv : {&a, &b}) {
        rv->prepare(44100.0);
        rv->setSize(0.4f);
        rv->setDecay(0.3);
        rv->setDamping(0.5f);
    }
    std::vector<float> inL(44100, 0.0f), inR(44100, 0.0f), l1, r1, l2, r2;
    inL[10] = 1.0f;
    inR[500] = -0.5f;
    run(a, inL, inR, l1, r1, 64);
    run(b, inL, inR, l2, r2, 5);
    CHECK(ambtest::sameBytes(l1, l2));
    CHECK(ambtest::sameBytes(r1, r2));
    a.reset();
    FdnReverb c;
    c.prepare(44100.0);
    c.setSize(0.4f);
    c.setDecay(0.3);
    c.setDamping(0.5f);
    run(a, inL, inR, l1, r1);
    run(c, inL, inR, l2, r2);
    CHECK(ambtest::sameBytes(l1, l2));

    // 20 s of silence after the impulse: 60 dB per 0.3 s takes the tail far below FLT_MIN.
    std::vector<float> silence(44100 * 20, 0.0f), sl, sr;
    run(a, silence, silence, sl, sr);
    CHECK(ambtest::subnormals(sl) == 0);
    CHECK(ambtest::subnormals(sr) == 0);
}

namespace {

// The network as it is defined, one frame at a time: FdnReverb renders stretches of frames with
// the lines as vector lanes, which changes only the order of the sums across lines.
struct ReferenceFdn {
    static constexpr int kLines = 8;
    std::vector<std::vector<float>> lines, aps;
    std::vector<int> pos, apPos;
    float gain[kLines] = {}, damp[kLines] = {}, coef = 0.0f;

    ReferenceFdn(const FdnReverb& rv, double rate, double decay, float damping) {
        for (int i = 0; i < kLines; ++i) {
            lines.emplace_back(static_cast<size_t>(rv.lineLength(i)), 0.0f);
            gain[i] = static_cast<float>(std::pow(10.0, -3.0 * rv.lineLength(i) / (decay * rate)));
        }
        for (double ms : {4.7, 3.7, 5.3, 3.1})
            aps.emplace_back(static_cast<size_t>(std::max(1L, std::lround(ms * 0.001 * rate))), 0.0f);
        pos.assign(kLines, 0);
        apPos.assign(4, 0);
        coef = 1.0f - 0.9f * damping;
    }
    float diffuse(float x, int k) {
        float& slot = aps[static_cast<size_t>(k)][static_cast<size_t>(apPos[static_cast<size_t>(k)])];
        const float d = slot, v = x + 0.6f * d;
        slot = v;
        if (++apPos[static_cast<size_t>(k)] >= static_cast<int>(aps[static_cast<size_t>(k)].size()))
            apPos[static_cast<size_t>(k)] = 0;
        return d - 0.6f * v;
    }
    void frame(float inL, float inR, float& outL, float& outR) {
        static constexpr float inSign[kLines] = {1, 1, -1, 1, 1, -1, -1, -1};
        static constexpr float outSign[kLines] = {1, -1, 1, 1, -1, 1, 1, -1};
        const float dl = diffuse(diffuse(inL, 0), 1), dr = diffuse(diffuse(inR, 2), 3);
        float y[kLines], sum = 0.0f, oL = 0.0f, oR = 0.0f;
        for (size_t i = 0; i < kLines; ++i) {
            const float o = lines[i][static_cast<size_t>(pos[i])];
            damp[i] += (o - damp[i]) * coef;
            y[i] = damp[i] * gain[i];
            sum += y[i];
            (i & 1 ? oR : oL) += outSign[i] * o;
        }
        const float h = sum * (2.0f / kLines);
        for (size_t i = 0; i < kLines; ++i) {
            lines[i][static_cast<size_t>(pos[i])] = y[i] - h + inSign[i] * ((i & 1) ? dr : dl);
            if (++pos[i] >= static_cast<int>(lines[i].size())) pos[i] = 0;
        }
        outL = oL * 0.5f;
        outR = oR * 0.5f;
    }
};

}  // namespace

// At 8 kHz the allpasses are shorter than a render call, so stretches end at their wraps too. Both
// kernels: the baseline one (forced by BOOP_NO_AVX2) and the one chosen for this CPU.
TEST_CASE("FdnReverb: the vector rendering matches the frame-by-frame definition") {
    for (double rate : {48000.0, 8000.0, -48000.0}) {
        if (rate < 0.0) {
            setenv("BOOP_NO_AVX2", "1", 1);
            rate = -rate;
        }
        FdnReverb rv;
        unsetenv("BOOP_NO_AVX2");
        rv.prepare(rate);
        rv.setSize(0.6f);
        rv.setDecay(3.0);
        rv.setDamping(0.4f);
        ReferenceFdn ref(rv, rate, 3.0, 0.4f);
        const size_t frames = static_cast<size_t>(rate * 3);
        boop::dsp::Rng rng(5, 1);
        std::vector<float> inL(frames, 0.0f), inR(frames, 0.0f), l, r;
        for (size_t i = 0; i < frames / 3; ++i) {
            inL[i] = 0.5f * rng.bipolar();
            inR[i] = 0.5f * rng.bipolar();
        }
        run(rv, inL, inR, l, r, 37);
        double worst = 0.0, energy = 0.0;
        for (size_t i = 0; i < frames; ++i) {
            float wl, wr;
            ref.frame(inL[i], inR[i], wl, wr);
            worst = std::max({worst, double(std::fabs(wl - l[i])), double(std::fabs(wr - r[i]))});
            energy += double(wl) * wl;
        }
        INFO("rate " << rate << ", worst difference " << worst);
        CHECK(std::sqrt(energy / frames) > 0.05);
        // Rounding only: the sums across lines are added in another order.
        CHECK(worst < 1e-5);
    }
}
