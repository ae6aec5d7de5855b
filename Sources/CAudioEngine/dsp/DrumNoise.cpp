#include "dsp/DrumNoise.hpp"

#include "dsp/Lowpass.hpp"

namespace boop {

void DrumNoiseTables::prepare(double sampleRate) {
    uint32_t length = 1;
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
    bool filled[kKinds] = {};
    for (int k = 0; k < kKinds; ++k) {
        tables_[k] = nullptr;
        if (slotOf[k] < 0) continue;
        float* table = storage_.get() + stride * static_cast<size_t>(slotOf[k]);
        tables_[k] = table;
        if (filled[slotOf[k]]) continue;
        filled[slotOf[k]] = true;
        Lowpass filter;
        filter.prepare(sampleRate, recipes[k].noiseCutoffHz);
        uint32_t rng = 0x2545f491u + static_cast<uint32_t>(k);
        auto next = [&] {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            const float n = static_cast<float>(static_cast<int32_t>(rng)) * (1.0f / 2147483648.0f);
            const float low = filter.process(n);
            return recipes[k].noiseHighpass ? n - low : low;
        };
        // Past the filter's start-up, so every part of the loop is steady-state noise.
        for (int i = 0; i < 4096; ++i) next();
        for (uint32_t i = 0; i < length; ++i) table[i] = next();
        for (uint32_t i = 0; i < 8; ++i) table[length + i] = table[i];
    }
}

}  // namespace boop
