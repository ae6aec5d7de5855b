#pragma once
// The output chain, composed here and nowhere else: a source (the engine, ambient, a crossfader)
// and then the one output stage (gain, true-peak limiter). A backend pulls the chain; capi/ only
// builds it from a handle. So the audio thread runs backend -> chain -> source and back, never
// through the C boundary: live, a playback's backend pulls source() (the stage's process(), the
// sound heard latency() frames late); offline, boop_output_render calls renderAligned() (the
// stage's processAligned(), every frame on its own). Nothing follows the stage: the limiter keeps
// every sample within the ceiling (at most 0 dBTP), so the device hears the stage's samples.
#include <cstdint>

#include "engine/OutputStage.hpp"
#include "include/CAudioEngine.h"

namespace boop {

class OutputChain {
  public:
    OutputStage& stage() noexcept { return stage_; }
    const OutputStage& stage() const noexcept { return stage_; }

    // Control thread, before the audio thread runs (allocates): the stage prepared for `source`,
    // and the source a backend pulls in its place, `source` through the stage. Valid while the
    // chain lives.
    boop_source live(const boop_source& source, double ceilingDbtp);

    // Offline, one block: `source` renders `frames` into `out`, the stage makes them aligned;
    // `aligned` is how many came out (fewer only while the look-ahead fills). The source must
    // match the stage's channels and rate and take `frames` in one call (checked by the caller).
    boop_status renderAligned(const boop_source& source, float* out, uint32_t frames, uint32_t& aligned);

  private:
    // Not BOOP_RT itself: it calls the source through a function pointer, which the compiler
    // cannot check; every source's render is BOOP_RT where it is defined (engine, ambient).
    static boop_status renderLive(void* self, float* out, uint32_t frames) noexcept;

    OutputStage stage_;
    boop_source inner_{};  // what live() was given
};

}  // namespace boop
