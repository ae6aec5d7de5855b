// Whether the reverb's dying tail costs what fresh silence costs: 20 s after a short impulse at a
// 0.3 s decay, the tail is far below FLT_MIN, and denormals (were they not flushed) would make
// each sample tens of times slower. Prints both times; exits 1 when the tail is over three times
// slower (with 1 ms of slack). A timing, so a benchmark and not a unit test: it is meaningful only
// on an idle machine, from a build without sanitizers. Run: build/FdnReverbTailBench
#include <algorithm>
#include <cstdio>
#include <vector>
#include "BenchWorkload.hpp"
#include "dsp/FdnReverb.hpp"
#include "rt/Denormals.hpp"

namespace {

void run(boop::dsp::FdnReverb& rv, const std::vector<float>& in, std::vector<float>& l, std::vector<float>& r) {
    l.assign(in.size(), 0.0f);
    r.assign(in.size(), 0.0f);
    boop::DenormalGuard guard;
    for (size_t i = 0; i < in.size(); i += 64) {
        const int n = static_cast<int>(std::min<size_t>(64, in.size() - i));
        rv.process(in.data() + i, in.data() + i, l.data() + i, r.data() + i, n);
    }
}

void prepare(boop::dsp::FdnReverb& rv) {
    rv.prepare(44100.0);
    rv.setSize(0.4f);
    rv.setDecay(0.3);
    rv.setDamping(0.5f);
}

}  // namespace

int main() {
    boop::dsp::FdnReverb tail, fresh;
    prepare(tail);
    prepare(fresh);
    std::vector<float> impulse(44100, 0.0f), silence(44100 * 20, 0.0f), block(44100, 0.0f), l, r;
    impulse[10] = 1.0f;
    run(tail, impulse, l, r);
    run(tail, silence, l, r);
    const double tailSeconds = bench::medianSeconds(5, [&] { run(tail, block, l, r); });
    const double cleanSeconds = bench::medianSeconds(5, [&] { run(fresh, block, l, r); });
    std::printf("FdnReverb, 1 s at 44.1 kHz: dying tail %.3f ms, fresh silence %.3f ms\n", tailSeconds * 1e3,
                cleanSeconds * 1e3);
    const bool ok = tailSeconds < 3.0 * cleanSeconds + 1e-3;
    std::printf("%s\n", ok ? "ok: no denormal slowdown" : "SLOW: the tail costs over three times fresh silence");
    return ok ? 0 : 1;
}
