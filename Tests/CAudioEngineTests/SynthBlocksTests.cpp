// The live synth's render step (engine/SynthBlocks) as its hosts run it: the blocks handed to the
// sink cover the span in order and in at most `blockFrames` each; while a CC 7 volume ramps
// (5 ms) they are one frame long; and the samples are those of one whole render through the
// same output stage, whatever the block size.
#include <doctest/doctest.h>
#include <cstdint>
#include <vector>
#include "SynthRig.hpp"
#include "engine/OutputStage.hpp"
#include "engine/SynthBlocks.hpp"

using boop::MidiSynth;
using testsig::SynthRig;

namespace {

struct Block {
    uint32_t begin, frames;
};

// Renders [from, to) of `rig` through `stage` in blocks of at most `blockFrames`, recording each
// block the sink gets and the interleaved output. The sink runs on the audio path (BOOP_RT): the
// room for what it records is made before, so it never allocates.
std::vector<Block> run(SynthRig& rig, boop::OutputStage& stage, uint32_t blockFrames, uint32_t from, uint32_t to,
                       std::vector<float>& out) {
    std::vector<float> block(2 * size_t(blockFrames));
    std::vector<Block> seen;
    seen.reserve(to - from);  // at most one block a frame
    out.reserve(out.size() + 2 * size_t(to - from));
    boop::renderSynthBlocks(rig.synth, rig.engine, stage, block.data(), blockFrames, from, to,
                            [&](const float* data, uint32_t n, uint32_t begin) {
                                seen.push_back({begin, n});
                                out.insert(out.end(), data, data + 2 * size_t(n));
                            });
    return seen;
}

void prepareStage(boop::OutputStage& stage) {
    stage.prepare(SynthRig::kRate, 2, -1.0);
    stage.setLookahead(false);
}

const int (&sawOnZero())[16] { return SynthRig::only(0, MidiSynth::kPalette + BOOP_VOICE_SAW); }

}  // namespace

TEST_CASE("the blocks cover the span in order, none longer than blockFrames") {
    SynthRig rig(sawOnZero());
    boop::OutputStage stage;
    prepareStage(stage);
    rig.send(0x90, 60, 100);
    std::vector<float> out;
    const auto blocks = run(rig, stage, 100, 1000, 2050, out);
    uint32_t at = 1000;
    for (const Block& b : blocks) {
        CHECK(b.begin == at);
        CHECK(b.frames >= 1);
        CHECK(b.frames <= 100);
        at += b.frames;
    }
    CHECK(at == 2050);
    CHECK(out.size() == 2 * 1050u);
    CHECK(blocks.size() == 11);  // ten of 100 and the last 50: no ramp, no vibrato
}

TEST_CASE("while a CC 7 change ramps, blocks are one frame; afterwards whole again") {
    SynthRig rig(sawOnZero());
    boop::OutputStage stage;
    prepareStage(stage);
    rig.send(0x90, 60, 100);
    std::vector<float> out;
    run(rig, stage, 256, 0, 1024, out);
    rig.send(0xB0, 7, 20);
    const auto blocks = run(rig, stage, 256, 1024, 4096, out);
    const uint32_t rampFrames = static_cast<uint32_t>(MidiSynth::kVolumeRampSeconds * SynthRig::kRate);
    size_t ones = 0;
    while (ones < blocks.size() && blocks[ones].frames == 1) ++ones;
    CHECK(ones == doctest::Approx(rampFrames).epsilon(0.05));
    for (size_t i = ones; i + 1 < blocks.size(); ++i) CHECK(blocks[i].frames == 256);
}

TEST_CASE("the samples do not depend on the block size: one stage, blocks of 1 ... 512") {
    std::vector<float> reference;
    for (uint32_t blockFrames : {512u, 1u, 37u, 64u, 300u}) {
        CAPTURE(blockFrames);
        SynthRig rig(sawOnZero());
        boop::OutputStage stage;
        prepareStage(stage);
        rig.send(0x90, 60, 110);
        rig.send(0x90, 67, 90);
        std::vector<float> out;
        run(rig, stage, blockFrames, 0, 3000, out);
        rig.send(0xB0, 7, 64);  // a ramp in the middle
        rig.send(0x80, 60, 0);
        run(rig, stage, blockFrames, 3000, 6000, out);
        if (reference.empty()) {
            reference = out;
            double energy = 0.0;
            for (float x : out) energy += double(x) * x;
            CHECK(energy > 1.0);  // the notes sound
        } else {
            CHECK(out == reference);
        }
    }
}

TEST_CASE("renderSynthFrames writes what renderSynthBlocks gives its sink before the stage") {
    SynthRig a(sawOnZero()), b(sawOnZero());
    a.send(0x90, 64, 50);
    b.send(0x90, 64, 50);
    std::vector<float> direct(2 * 2000);
    boop::renderSynthFrames(a.synth, a.engine, direct.data(), 2000);
    // A stage at unity gain whose clipper's knee (half of 3 dB under a 0 dBTP ceiling, 0.354) the
    // note stays under passes the samples through.
    boop::OutputStage stage;
    stage.prepare(SynthRig::kRate, 2, 0.0);
    stage.setLookahead(false);
    std::vector<float> blocks;
    run(b, stage, 128, 0, 2000, blocks);
    float peak = 0.0f;
    for (float x : direct) peak = std::max(peak, std::fabs(x));
    REQUIRE(peak < 0.3f);
    CHECK(blocks == direct);
}
