#include <doctest/doctest.h>
#include <vector>
#include "AmbientTestSupport.hpp"
#include "ambient/AmbientEngine.hpp"

using boop::ambient::AmbientEngine;
using namespace ambtest;

namespace {

// Frames in uneven blocks, a pause and a resume inside the seconds measureAhead kept, then on past
// their end.
std::vector<float> renderThroughPause(AmbientEngine& e, bool worker) {
    std::vector<float> out, block(2 * 1000);
    auto render = [&](std::uint32_t n) {
        if (worker)
            e.renderWithWorker(block.data(), n);
        else
            e.render(block.data(), n);
        out.insert(out.end(), block.begin(), block.begin() + 2 * n);
    };
    for (int i = 0; i < 60; ++i) render(i % 2 ? 1000 : 77);
    e.requestPause(true, 0.05);
    for (int i = 0; i < 20; ++i) render(1000);
    e.requestPause(false, 0.05);
    for (int i = 0; i < 200; ++i) render(i % 3 ? 1000 : 31);
    return out;
}

}  // namespace

// The loudness is measured on the engine's own first seconds, which are kept and mastered later
// with the gain it sets: the same measurement, and the same samples, as an engine whose loudness
// a second engine measured; on one core and with the worker.
TEST_CASE("ambient measured ahead: the measurement and the samples of a separate measurement") {
    const boop_ambient_config c = config(11);
    constexpr double kSeconds = 3.0;  // after the 1 s fade-in: 176 400 frames kept, rendered past
    const double separate = AmbientEngine::measureLoudness(c, kSeconds);
    for (bool worker : {false, true}) {
        CAPTURE(worker);
        AmbientEngine ref(c), ahead(c);
        ref.normalize(BOOP_AMBIENT_LOUDNESS_LUFS, separate);
        double lufs = 0;
        REQUIRE(ahead.measureAhead(kSeconds, lufs));
        CHECK(lufs == separate);
        ahead.normalize(BOOP_AMBIENT_LOUDNESS_LUFS, lufs);
        if (worker) {
            REQUIRE(ref.startWorker());
            REQUIRE(ahead.startWorker());
        }
        const auto a = renderThroughPause(ref, worker), b = renderThroughPause(ahead, worker);
        CHECK(rms(a) > 0.01);
        CHECK(sameBytes(a, b));
    }
}
