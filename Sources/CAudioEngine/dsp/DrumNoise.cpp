#include "dsp/DrumNoise.hpp"

#include "dsp/Lowpass.hpp"
#include "dsp/Rng.hpp"
#include "dsp/SimdTypes.hpp"

namespace boop {
namespace dsp {

namespace {

// One frame of the eight lanes: white noise through each lane's lowpass, or the lowpass's complement.
BOOP_SIMD_INLINE simd::f8 noiseStep(simd::u8& rng, const BiquadLanes& filter, const simd::i8& highpass, simd::f8& z1,
                                    simd::f8& z2) noexcept {
    const simd::f8 n = Rng::xorshift32(rng);
    const simd::f8 low = biquadStep(filter, n, z1, z2);
    return simd::select<simd::f8>(highpass, n - low, low);
}

// Runs the eight lanes' noise through their filters and writes the first `slots` lanes' outputs
// from frame 0 on, after warmUp frames of start-up; length is a multiple of eight. Eight frames
// are transposed and stored as one vector per table: storing each lane's value of each frame on
// its own took as long as the filter (the samples are the same either way).
BOOP_SIMD_INLINE void fillLanes(const simd::u8& seeds, const BiquadLanes& filter, const simd::i8& highpass,
                                float* const* tableOf, int slots, int warmUp, uint32_t length) noexcept {
    simd::u8 rng = seeds;  // vectors by reference: the builds pass them by value differently
    simd::f8 z1{}, z2{};
    for (int i = 0; i < warmUp; ++i) (void)noiseStep(rng, filter, highpass, z1, z2);
    simd::f8 frames[simd::kLanes];
    for (uint32_t i = 0; i < length; i += simd::kLanes) {
        for (int f = 0; f < simd::kLanes; ++f) frames[f] = noiseStep(rng, filter, highpass, z1, z2);
        simd::transpose8(frames);
        for (int lane = 0; lane < slots; ++lane) *reinterpret_cast<simd::f8u*>(tableOf[lane] + i) = frames[lane];
    }
}

void fillLanesBaseline(const simd::u8& seeds, const BiquadLanes& filter, const simd::i8& highpass,
                       float* const* tableOf, int slots, int warmUp, uint32_t length) noexcept {
    fillLanes(seeds, filter, highpass, tableOf, slots, warmUp, length);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define BOOP_HAVE_AVX2_NOISE 1
// Every engine made fills these tables before its first sample (a millisecond of each render's
// start on the baseline): AVX2 without FMA, the same roundings, so the same tables.
__attribute__((target("avx2"))) void fillLanesAvx2(const simd::u8& seeds, const BiquadLanes& filter,
                                                   const simd::i8& highpass, float* const* tableOf, int slots,
                                                   int warmUp, uint32_t length) noexcept {
    fillLanes(seeds, filter, highpass, tableOf, slots, warmUp, length);
}
#endif

}  // namespace

void DrumNoiseTables::prepare(double sampleRate) {
    uint32_t length = simd::kLanes;  // whole groups of eight frames (any real rate needs far more)
    while (length < 1.4 * sampleRate) length <<= 1;
    mask_ = length - 1;
    const size_t stride = length + 8;
    // A representative key of each kind; kinds that share a filter (the hats) share a table.
    const uint32_t keys[kKinds] = {36, 38, 37, 39, 45, 42, 46, 49};
    DrumRecipe recipes[kKinds];
    int slotOf[kKinds];
    int slots = 0;
    for (int k = 0; k < kKinds; ++k) {
        recipes[k] = DrumRecipe::forKey(keys[k], sampleRate);
        slotOf[k] = -1;
        if (recipes[k].noiseAmp <= 0.0f) continue;
        for (int j = 0; j < k && slotOf[k] < 0; ++j)
            if (slotOf[j] >= 0 && recipes[j].noiseCutoffHz == recipes[k].noiseCutoffHz &&
                recipes[j].noiseHighpass == recipes[k].noiseHighpass)
                slotOf[k] = slotOf[j];
        if (slotOf[k] < 0) slotOf[k] = slots++;
    }
    storage_.reset(new float[stride * static_cast<size_t>(slots)]);
    // Every table at once, one per vector lane: the filter is a recursion, and eight of them side
    // by side cost what one does (this runs each time an engine is made, before a render starts).
    simd::u8 rng{};
    BiquadLanes filter;
    simd::i8 highpass{};
    float* tableOf[simd::kLanes] = {};
    for (int k = 0; k < kKinds; ++k) {
        tables_[k] = slotOf[k] < 0 ? nullptr : storage_.get() + stride * static_cast<size_t>(slotOf[k]);
        const int lane = slotOf[k];
        if (lane < 0 || tableOf[lane] != nullptr) continue;
        tableOf[lane] = storage_.get() + stride * static_cast<size_t>(lane);
        filter.set(lane, BiquadCoefficients::lowpass(sampleRate, recipes[k].noiseCutoffHz));
        rng[lane] = 0x2545f491u + static_cast<uint32_t>(k);
        highpass[lane] = recipes[k].noiseHighpass ? -1 : 0;
    }
    constexpr int kWarmUp = 4096;  // past the filter's start-up: every part of the loop is steady
#if defined(BOOP_HAVE_AVX2_NOISE)
    if (simd::useAvx2()) {
        fillLanesAvx2(rng, filter, highpass, tableOf, slots, kWarmUp, length);
    } else {
        fillLanesBaseline(rng, filter, highpass, tableOf, slots, kWarmUp, length);
    }
#else
    fillLanesBaseline(rng, filter, highpass, tableOf, slots, kWarmUp, length);
#endif
    for (int lane = 0; lane < slots; ++lane)
        for (uint32_t i = 0; i < 8; ++i) tableOf[lane][length + i] = tableOf[lane][i];
}

}  // namespace dsp
}  // namespace boop
