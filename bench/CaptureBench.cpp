// Capture-side work per buffer, as `boop listen` does it: 2048 frames at 16 kHz arriving as
// interleaved device samples (S16 stereo, S32 stereo and FLOAT mono), converted to mono float in
// [-1, 1], then YIN. Prints median and max µs per buffer; the budget is "far below 1 ms"
// (a buffer lasts 128 ms).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "backend/alsa/AlsaCapture.hpp"
#include "dsp/Yin.hpp"

namespace {

struct Stats {
    double median, max, mean;
};

Stats summarise(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    return {v[v.size() / 2], v.back(), sum / double(v.size())};
}

template <typename T>
std::vector<T> interleaved(uint32_t frames, uint32_t channels, double freq, double rate, double scale) {
    std::vector<T> v(frames * channels);
    for (uint32_t i = 0; i < frames; ++i)
        for (uint32_t c = 0; c < channels; ++c)
            v[i * channels + c] = static_cast<T>(scale * 0.5 * std::sin(2.0 * M_PI * freq * i / rate + 0.1 * c));
    return v;
}

}  // namespace

int main() {
    const double rate = 16000;
    const uint32_t frames = 2048;
    const int runs = 2000;
    boop::dsp::Yin yin;
    yin.prepare(rate, frames);
    std::vector<float> mono(frames);

    const auto s16 = interleaved<int16_t>(frames, 2, 440.0, rate, 32767.0);
    const auto s32 = interleaved<int32_t>(frames, 2, 523.25, rate, 2147483647.0);
    const auto f32 = interleaved<float>(frames, 1, 261.63, rate, 1.0);
    struct Case {
        const char* name;
        const void* data;
        boop::SampleFormat format;
        uint32_t channels;
    };
    const Case cases[] = {{"S16_LE stereo", s16.data(), boop::SampleFormat::S16, 2},
                          {"S32_LE stereo", s32.data(), boop::SampleFormat::S32, 2},
                          {"FLOAT_LE mono", f32.data(), boop::SampleFormat::Float, 1}};

    std::printf("capture-side work per %u-frame buffer at %.0f Hz (buffer = %.0f ms), %d runs each\n", frames, rate,
                1000.0 * frames / rate, runs);
    double checksum = 0;
    for (const Case& c : cases) {
        std::vector<double> convUs, yinUs, totalUs;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            boop::convertToMono(c.data, c.format, c.channels, frames, mono.data());
            const auto t1 = std::chrono::steady_clock::now();
            const boop::dsp::YinResult y = yin.process(mono.data(), frames);
            const auto t2 = std::chrono::steady_clock::now();
            checksum += y.frequency;
            convUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            yinUs.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
            totalUs.push_back(std::chrono::duration<double, std::micro>(t2 - t0).count());
        }
        const Stats cv = summarise(convUs), yv = summarise(yinUs), tv = summarise(totalUs);
        std::printf(
            "  %-14s convert+mono median %6.2f us max %7.2f | YIN median %7.2f us max %7.2f | "
            "total median %7.2f us max %7.2f (%.2f%% of the buffer)\n",
            c.name, cv.median, cv.max, yv.median, yv.max, tv.median, tv.max, 100.0 * tv.median / (1e6 * frames / rate));
    }
    std::printf("(checksum %.1f)\n", checksum);
    return 0;
}
