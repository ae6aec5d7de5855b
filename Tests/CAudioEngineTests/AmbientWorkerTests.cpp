// Offline rendering on two cores (AmbientWorker.cpp): the worker renders the sources ahead into a
// ring of stretches (kRing of them, at most kChunk frames each), waiting while the ring is full;
// renderWithWorker mixes them as render() would, a stretch cut into as many pieces as the blocks
// make. So any blocks, a reader slower than the worker (the ring full, the worker asleep) or one
// taking a frame at a time, give render()'s samples; an engine dropped while its worker waits ends
// it. (AmbientEngineTests checks a pause and the end fade with the worker.)
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "AmbientTestSupport.hpp"
#include "ambient/AmbientEngine.hpp"

using boop::ambient::AmbientEngine;

namespace {

boop_ambient_config piece() {
    boop_ambient_config c = ambtest::config(23, 22050.0);
    c.fade_in_seconds = 0.1f;
    return c;
}

// `frames` frames in blocks cycling through `blocks`, with or without the worker.
std::vector<float> renderBlocks(AmbientEngine& e, bool worker, std::size_t frames,
                                const std::vector<std::uint32_t>& blocks) {
    std::vector<float> out(2 * frames);
    std::size_t done = 0, k = 0;
    while (done < frames) {
        const auto n = std::uint32_t(std::min<std::size_t>(blocks[k++ % blocks.size()], frames - done));
        if (worker)
            e.renderWithWorker(out.data() + 2 * done, n);
        else
            e.render(out.data() + 2 * done, n);
        done += n;
    }
    return out;
}

}  // namespace

TEST_CASE("with the worker, any blocks give render()'s samples: frames one by one, stretches straddled") {
    // More than the ring holds (512 stretches of at most 32 frames): the worker fills it and
    // waits for room, the reader wakes it a batch at a time.
    const std::size_t frames = 40000;
    AmbientEngine plain(piece());
    const std::vector<float> reference = renderBlocks(plain, false, frames, {1024});
    REQUIRE(ambtest::rms(reference) > 0.001);
    for (const std::vector<std::uint32_t>& blocks :
         std::vector<std::vector<std::uint32_t>>{{1}, {31, 33, 1, 4097}, {20000}, {32}}) {
        CAPTURE(blocks.front());
        AmbientEngine e(piece());
        REQUIRE(e.startWorker());
        CHECK(e.hasWorker());
        const std::vector<float> out = renderBlocks(e, true, frames, blocks);
        CHECK(ambtest::sameBytes(out, reference));
        CHECK(e.frame() == frames);
    }
}

TEST_CASE("an engine dropped while its worker waits on a full ring, or before any render, ends it") {
    {
        AmbientEngine e(piece());
        REQUIRE(e.startWorker());
        // One block, then nothing: the worker runs 512 stretches ahead and sleeps on the full ring.
        std::vector<float> out(2 * 64);
        e.renderWithWorker(out.data(), 64);
        CHECK(ambtest::nonFinite(out) == 0);
    }  // the destructor wakes and joins it
    {
        AmbientEngine e(piece());
        REQUIRE(e.startWorker());
    }  // reached: neither destructor waited forever
}
