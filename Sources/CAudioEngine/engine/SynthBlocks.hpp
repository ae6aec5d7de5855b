#pragma once
// The live synth's render step, shared by its hosts (JACK's JackSynth, the LV2 plugin): the
// engine through the output stage, in blocks of at most `blockFrames`, each handed to
// `sink(interleaved stereo, frames, first frame of the span)`. While a channel's volume ramps the
// blocks are one frame long, each frame taking one step of the ramp (MidiSynth::stepVolumes), so
// a volume change is smooth to the frame whatever the host's cycle; while a version-1 MPE member's
// vibrato runs they end on its steps (MidiSynth::stepVibratos). The engine's output is
// interleaved stereo: the palette channels add their panned pairs to it.
#include <algorithm>
#include <cstdint>

#include "engine/Engine.hpp"
#include "engine/MidiSynth.hpp"
#include "engine/OutputStage.hpp"
#include "rt/Realtime.hpp"

namespace boop {

// The frames the next block may take, at most `frames`: one while a channel's volume ramps (its
// step taken here), else up to the next vibrato step.
inline uint32_t nextSynthBlock(MidiSynth& synth, uint32_t frames) BOOP_RT {
    if (synth.volumesRamping()) {
        synth.stepVolumes();
        frames = 1;
    }
    return synth.stepVibratos(frames);
}

template <typename Sink>
void renderSynthBlocks(MidiSynth& synth, Engine& engine, OutputStage& stage, float* block, uint32_t blockFrames,
                       uint32_t begin, uint32_t end, Sink&& sink) BOOP_RT {
    while (begin < end) {
        const uint32_t n = nextSynthBlock(synth, std::min(end - begin, blockFrames));
        engine.render(block, n);
        synth.renderPalette(block, n);
        stage.process(block, n);
        sink(static_cast<const float*>(block), n, begin);
        begin += n;
    }
}

// The same without the output stage, into `out` (interleaved stereo): the ALSA synth's blocks.
inline void renderSynthFrames(MidiSynth& synth, Engine& engine, float* out, uint32_t frames) BOOP_RT {
    while (frames > 0) {
        const uint32_t n = nextSynthBlock(synth, frames);
        engine.render(out, n);
        synth.renderPalette(out, n);
        out += 2 * static_cast<size_t>(n);
        frames -= n;
    }
}

}  // namespace boop
