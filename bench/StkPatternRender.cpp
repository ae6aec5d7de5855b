// The STK side of the whole-process comparison: renders the event list from pattern-events.py
// with STK voices (SineWave -> ADSR -> BiQuad 2 kHz lowpass, 10 ms attack, release
// min(0.3 x gate, 0.15 s), oldest voice stolen) to a float WAV, like `boop render`.
// Usage: StkPatternRender EVENTS.txt VOICES RATE OUT.wav
#include <sndfile.h>
#include <stk/ADSR.h>
#include <stk/BiQuad.h>
#include <stk/SineWave.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include "dsp/Lowpass.hpp"

struct Event {
    long long frame;
    bool on;
    int id;
    double hz;
    double gain;
};
struct V {
    stk::SineWave osc;
    stk::ADSR env;
    stk::BiQuad lp;
    double gain = 0;
    int id = -1;
    long long onFrame = 0, order = 0;
};

// One event on the voices: a note-on takes the oldest (or an idle) voice, a note-off releases
// its note after min(0.3 x gate, 0.15 s), as the engine's melody voice does.
static void apply(const Event& x, std::vector<V>& v, long long frame, double rate, long long& order) {
    if (x.on) {
        V* slot = &v[0];
        for (V& c2 : v)
            if (c2.order < slot->order) slot = &c2;  // oldest (or idle)
        slot->osc.reset();
        slot->osc.setFrequency(x.hz);
        slot->env.setAllTimes(0.010, 0.0001, 1.0, 0.15);
        slot->env.keyOn();
        slot->gain = x.gain;
        slot->id = x.id;
        slot->onFrame = frame;
        slot->order = ++order;
        return;
    }
    for (V& c2 : v)
        if (c2.id == x.id) {
            c2.env.setReleaseTime(std::max(1e-4, std::min(0.3 * double(frame - c2.onFrame) / rate, 0.15)));
            c2.env.keyOff();
            c2.id = -1;
        }
}

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: StkPatternRender EVENTS VOICES RATE OUT.wav\n");
        return 64;
    }
    std::ifstream in(argv[1]);
    const int voices = std::atoi(argv[2]);
    const double rate = std::atof(argv[3]);
    long long end = 0;
    in >> end;
    std::vector<Event> ev;
    std::string kind;
    Event e{};
    while (in >> e.frame >> kind >> e.id >> e.hz >> e.gain) {
        e.on = kind == "on";
        ev.push_back(e);
    }
    stk::Stk::setSampleRate(rate);
    std::vector<V> v(voices);
    const auto c = boop::dsp::BiquadCoefficients::lowpass(rate, 2000.0);
    for (V& x : v) x.lp.setCoefficients(c.b0, c.b1, c.b2, c.a1, c.a2, true);
    SF_INFO info{};
    info.samplerate = int(rate);
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
    SNDFILE* f = sf_open(argv[4], SFM_WRITE, &info);
    if (!f) return 73;
    const long long total = end + static_cast<long long>(0.2 * rate);
    std::vector<float> block(4096);
    size_t next = 0;
    long long order = 0;
    for (long long start = 0; start < total; start += 4096) {
        const int n = int(std::min<long long>(4096, total - start));
        for (int i = 0; i < n; ++i) {
            const long long frame = start + i;
            while (next < ev.size() && ev[next].frame <= frame) apply(ev[next++], v, frame, rate, order);
            double s = 0;
            for (V& x : v) s += x.lp.tick(x.osc.tick() * x.env.tick() * x.gain);
            block[i] = float(s * 0.3);
        }
        sf_writef_float(f, block.data(), n);
    }
    sf_close(f);
    return 0;
}
