#include "engine/OutputChain.hpp"

namespace boop {

boop_source OutputChain::live(const boop_source& source, double ceilingDbtp) {
    stage_.prepare(source.sample_rate, source.channels, ceilingDbtp);
    inner_ = source;
    boop_source chained = source;
    chained.render = renderLive;
    chained.context = this;
    return chained;
}

boop_status OutputChain::renderLive(void* self, float* out, uint32_t frames) noexcept {
    auto* chain = static_cast<OutputChain*>(self);
    const boop_status s = chain->inner_.render(chain->inner_.context, out, frames);
    if (s != BOOP_OK) return s;
    chain->stage_.process(out, frames);
    return BOOP_OK;
}

boop_status OutputChain::renderAligned(const boop_source& source, float* out, uint32_t frames, uint32_t& aligned) {
    aligned = 0;
    const boop_status s = source.render(source.context, out, frames);
    if (s != BOOP_OK) return s;
    aligned = stage_.processAligned(out, frames);
    return BOOP_OK;
}

}  // namespace boop
