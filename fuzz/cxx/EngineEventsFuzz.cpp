// libFuzzer target: a random stream of C API calls (note on/off, drum hits, fades, cancels and
// renders of random sizes) into an engine of a random configuration. Whatever arrives, every
// call returns a status, every sample is finite and bounded, and no sanitizer complains.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "include/CAudioEngine.h"

namespace {

/// Reads the fuzzer's bytes as a stream of little numbers; zeros once exhausted.
struct Bytes {
    const uint8_t* data;
    size_t size;
    size_t at = 0;
    bool empty() const { return at >= size; }
    uint8_t u8() { return at < size ? data[at++] : 0; }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(u8()) << (8 * i);
        return v;
    }
    double f64() {
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(u8()) << (8 * i);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;  // any bit pattern: NaN, infinities, subnormals included
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Bytes in{data, size};
    boop_engine_config config;
    boop_engine_config_default(&config);
    const double rates[] = {8000, 22050, 44100, 48000, 96000, 384000};
    config.sample_rate = rates[in.u8() % 6];
    config.voices = 1 + in.u8() % 32;
    config.max_block_frames = 1 + in.u32() % 2048;
    config.queue_capacity = 16 + in.u8() % 256;
    config.channels = 1 + in.u8() % 2;
    boop_engine* engine = nullptr;
    if (boop_engine_create(&config, &engine) != BOOP_OK) return 0;
    std::vector<float> out(static_cast<size_t>(config.max_block_frames) * config.channels);
    // No limiter in the engine: the bound is every voice and drum at the largest gain (4) through
    // the master gain (0.3), with room for a resonant filter's overshoot (2x).
    const float bound = static_cast<float>(config.voices + 8) * 4.0f * 0.3f * 2.0f;
    uint64_t frame = 0;
    int steps = 0;
    while (!in.empty() && steps++ < 4096) {
        const uint8_t op = in.u8() % 7;
        const uint64_t when = frame + in.u32() % 100000;
        switch (op) {
            case 0:
                boop_engine_note_on(engine, when, in.u32() % 64, static_cast<boop_timbre>(in.u8() % 6), in.f64(),
                                    static_cast<float>(in.f64()));
                break;
            case 1:
                boop_engine_note_off(engine, when, in.u32() % 64);
                break;
            case 2:
                boop_engine_drum_hit(engine, when, in.u8(), static_cast<float>(in.f64()));
                break;
            case 3:
                boop_engine_all_notes_off(engine, when, in.f64());
                break;
            case 4:
                boop_engine_cancel_pending(engine, in.f64());
                break;
            default: {
                const uint32_t frames = 1 + in.u32() % config.max_block_frames;
                if (boop_engine_render(engine, out.data(), frames) != BOOP_OK) abort();
                for (size_t i = 0; i < static_cast<size_t>(frames) * config.channels; ++i) {
                    if (!std::isfinite(out[i]) || std::fabs(out[i]) > bound) abort();
                }
                frame += frames;
            }
        }
    }
    boop_engine_destroy(engine);
    return 0;
}
