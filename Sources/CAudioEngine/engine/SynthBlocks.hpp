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

template <typename Sink>
void renderSynthBlocks(MidiSynth& synth, Engine& engine, OutputStage& stage, float* block, uint32_t blockFrames,
                       uint32_t begin, uint32_t end, Sink&& sink) BOOP_RT {
    while (begin < end) {
        uint32_t n = std::min(end - begin, blockFrames);
        if (synth.volumesRamping()) {
            synth.stepVolumes();
            n = 1;
        }
        n = synth.stepVibratos(n);
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
        uint32_t n = frames;
        if (synth.volumesRamping()) {
            synth.stepVolumes();
            n = 1;
        }
        n = synth.stepVibratos(n);
        engine.render(out, n);
        synth.renderPalette(out, n);
        out += 2 * static_cast<size_t>(n);
        frames -= n;
    }
}

}  // namespace boop
