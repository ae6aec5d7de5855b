// How many voices of each palette voice the live synth renders within half of one core, at 64-
// and 256-frame periods (48 kHz), beside FluidSynth on the same notes where libfluidsynth and a
// General MIDI SoundFont are installed. Offline: the time to render a period against the period's
// duration, the mean over 0.4 s of sustained notes, the best of 3 runs (a busy machine only adds
// time). The live synth's palette path (SynthPalette: bank, lowpass, envelope, pan, soft clip).
// Usage: build/VoicesPerCoreBench [SOUNDFONT]   (default /usr/share/sounds/sf2/FluidR3_GM.sf2)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "dsp/MidiPitch.hpp"
#include "engine/SynthPalette.hpp"
#ifdef BOOP_HAVE_FLUIDSYNTH
#include <fluidsynth.h>
#endif

namespace {

constexpr double kRate = 48000.0;
constexpr double kBudget = 0.5;  // of one core
constexpr double kMeasureSeconds = 0.4;
constexpr double kWarmSeconds = 0.05;  // past every attack
constexpr int kLimit = 16384;          // boop notes tried at most
constexpr int kLowKey = 24, kKeys = 84;
constexpr int kFluidLimit = 15 * kKeys;  // FluidSynth: one note per key and channel (10 is the drums)

// The fraction of a period's duration that rendering it takes, at `notes` notes.
double periodLoad(int period, const std::function<void(float*, int)>& render) {
    std::vector<float> out(2 * size_t(period));
    const int warm = int(kWarmSeconds * kRate) / period, measured = int(kMeasureSeconds * kRate) / period;
    double best = 1e9;
    for (int run = 0; run < 3; ++run) {
        for (int p = 0; p < warm; ++p) render(out.data(), period);
        const auto a = std::chrono::steady_clock::now();
        for (int p = 0; p < measured; ++p) render(out.data(), period);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
        best = std::min(best, s / measured / (period / kRate));
    }
    return best;
}

// The most notes whose load stays within kBudget: doubling, then bisection.
int mostNotes(const std::function<double(int)>& load, int limit) {
    int lo = 0, hi = 1;
    while (hi < limit && load(hi) <= kBudget) lo = hi, hi *= 2;
    if (hi >= limit) {
        if (load(limit) <= kBudget) return limit;
        hi = limit;
    }
    while (hi - lo > std::max(1, lo / 50)) {
        const int mid = (lo + hi) / 2;
        (load(mid) <= kBudget ? lo : hi) = mid;
    }
    return lo;
}

double boopLoad(boop_instrument_voice voice, int notes, int period) {
    const int palettes = (notes + 255) / 256;
    std::vector<std::unique_ptr<boop::SynthPalette>> banks;
    for (int b = 0; b < palettes; ++b) {
        banks.push_back(std::make_unique<boop::SynthPalette>());
        banks.back()->prepare(kRate);
        for (int ch = 0; ch < boop::SynthPalette::kChannels; ++ch)
            banks.back()->setSound(ch, boop::SynthPalette::voiceSound(voice));
    }
    for (int n = 0; n < notes; ++n) {
        const int key = kLowKey + n % kKeys;
        banks[size_t(n / 256)]->noteOn(n / 16 % 16, uint32_t(n + 1), boop::dsp::midiKeyHz(key), 0.6f, uint64_t(n));
    }
    const double load = periodLoad(period, [&](float* out, int frames) {
        std::fill(out, out + 2 * frames, 0.0f);
        for (auto& bank : banks) bank->render(out, uint32_t(frames));
    });
    int sounding = 0;
    for (auto& bank : banks) sounding += bank->activeCount();
    if (sounding < notes) std::fprintf(stderr, "(%d of %d notes still sounded at the end)\n", sounding, notes);
    return load;
}

#ifdef BOOP_HAVE_FLUIDSYNTH
// FluidSynth 2 with reverb and chorus off (the palette has neither), one core, the voice's GM program.
double fluidLoad(const char* soundfont, int program, int notes, int period, int* voices) {
    fluid_settings_t* settings = new_fluid_settings();
    fluid_settings_setnum(settings, "synth.sample-rate", kRate);
    fluid_settings_setint(settings, "synth.polyphony", 65535);
    fluid_settings_setint(settings, "synth.reverb.active", 0);
    fluid_settings_setint(settings, "synth.chorus.active", 0);
    fluid_settings_setint(settings, "synth.cpu-cores", 1);
    fluid_synth_t* synth = new_fluid_synth(settings);
    fluid_synth_sfload(synth, soundfont, 1);
    for (int ch = 0; ch < 16; ++ch)
        if (ch != 9) fluid_synth_program_change(synth, ch, program);  // 10 is the drums
    for (int n = 0; n < notes; ++n) {
        const int ch = n / kKeys % 15;
        fluid_synth_noteon(synth, ch < 9 ? ch : ch + 1, kLowKey + n % kKeys, 96);
    }
    std::vector<float> left(static_cast<size_t>(period)), right(static_cast<size_t>(period));
    const double load = periodLoad(period, [&](float*, int frames) {
        fluid_synth_write_float(synth, frames, left.data(), 0, 1, right.data(), 0, 1);
    });
    *voices = fluid_synth_get_active_voice_count(synth);
    delete_fluid_synth(synth);
    delete_fluid_settings(settings);
    return load;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    const char* soundfont = argc > 1 ? argv[1] : "/usr/share/sounds/sf2/FluidR3_GM.sf2";
    (void)soundfont;
#ifdef BOOP_HAVE_FLUIDSYNTH
    fluid_set_log_function(FLUID_WARN, nullptr, nullptr);
#endif
    static constexpr struct {
        boop_instrument_voice voice;
        const char* name;
        int program;
    } kVoices[] = {
#define BOOP_BENCH_VOICE(ENUMERATOR, name, value, program, ...) {ENUMERATOR, name, program},
        BOOP_VOICES(BOOP_BENCH_VOICE)
#undef BOOP_BENCH_VOICE
    };
    std::printf("notes within %.0f %% of one core, 48 kHz, keys %d-%d, best of 3 x %.1f s per count\n", kBudget * 100,
                kLowKey, kLowKey + kKeys - 1, kMeasureSeconds);
    std::printf("| voice | GM program | boop, 64 frames | boop, 256 frames | FluidSynth, 64 | FluidSynth, 256 |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& v : kVoices) {
        std::printf("| %s | %d |", v.name, v.program);
        for (int period : {64, 256}) {
            const int n = mostNotes([&](int notes) { return boopLoad(v.voice, notes, period); }, kLimit);
            std::printf(n >= kLimit ? " >= %d |" : " %d |", n);
            std::fflush(stdout);
        }
#ifdef BOOP_HAVE_FLUIDSYNTH
        for (int period : {64, 256}) {
            int voices = 0;
            const int n = mostNotes([&](int notes) { return fluidLoad(soundfont, v.program, notes, period, &voices); },
                                    kFluidLimit);
            fluidLoad(soundfont, v.program, n, period, &voices);
            std::printf(n >= kFluidLimit ? " >= %d (%d voices) |" : " %d (%d voices) |", n, voices);
            std::fflush(stdout);
        }
#else
        std::printf(" not built | not built |");
#endif
        std::printf("\n");
    }
    return 0;
}
