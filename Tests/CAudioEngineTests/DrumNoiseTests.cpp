// DrumNoiseTables: each drum kind's noise, filtered once when the engine is prepared.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "TestSignals.hpp"
#include "dsp/DrumNoise.hpp"
#include "dsp/Lowpass.hpp"
#include "dsp/Rng.hpp"

using namespace testsig;

namespace {

constexpr double kRate = 44100.0;

}  // namespace

// Each table against the noise DrumVoice generates for its kind (xorshift through the kind's
// lowpass or its complement), from a different starting state and eight loops long, so that the
// table's own sampling variation is what is measured. An estimate of the energy in a band of
// effective width B over T seconds varies with a relative standard deviation of 1 / sqrt(B T).
// The narrowest measure is the kick's energy above 16 kHz (-44 dB): its lowpass, with a zero at
// Nyquist, puts that energy within about 1 kHz above the edge, so B T is about 1500 over the
// 1.49 s loop: 2.6 %, 0.11 dB. Every other band and the level are wider. Four deviations: 0.45 dB.
TEST_CASE("the noise tables are the drums' filtered noise: level and octave bands") {
    boop::dsp::DrumNoiseTables tables;
    tables.prepare(kRate);
    const size_t length = size_t{tables.mask()} + 1;
    CHECK(length >= 1.4 * kRate);
    for (uint32_t key : {36u, 38u, 37u, 39u, 42u, 46u, 49u}) {
        const boop::dsp::DrumRecipe r = boop::dsp::DrumRecipe::forKey(key, kRate);
        const float* table = tables.table(r.kind);
        REQUIRE(table != nullptr);
        std::vector<float> fromTable(table, table + length);
        boop::dsp::Lowpass filter;
        filter.prepare(kRate, r.noiseCutoffHz);
        uint32_t rng = 12345u + key;
        std::vector<float> generated(8 * length);
        for (size_t i = 0; i < generated.size() + 4096; ++i) {
            const float n = boop::dsp::Rng::xorshift32(rng);
            const float low = filter.process(n);
            if (i >= 4096) generated[i - 4096] = r.noiseHighpass ? n - low : low;
        }
        const double levelDb = dB(energy(fromTable) / energy(generated) * 8);
        const auto a = octaveProfile(fromTable, kRate), b = octaveProfile(generated, kRate);
        double worstBand = 0;
        for (size_t k = 0; k < a.size(); ++k)
            if (b[k] > -60) worstBand = std::max(worstBand, std::fabs(a[k] - b[k]));
        INFO("key " << key << ": level " << levelDb << " dB, worst band " << worstBand << " dB");
        CHECK(std::fabs(levelDb) < 0.45);
        CHECK(worstBand < 0.45);
        // The loop reads straight on past its end.
        for (int k = 0; k < 8; ++k) CHECK(table[length + k] == table[k]);
    }
    CHECK(tables.table(boop::dsp::DrumRecipe::Kind::Tom) == nullptr);
    // Consecutive hits start far apart in the loop.
    for (uint32_t seed = 1; seed < 200; ++seed) {
        const uint32_t d = (tables.start(seed + 1) - tables.start(seed)) & tables.mask();
        CHECK(std::min(d, tables.mask() + 1 - d) > kRate * 0.1);
    }
}
