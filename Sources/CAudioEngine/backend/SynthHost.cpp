#include "backend/SynthHost.hpp"

namespace boop {

boop_status SynthHost::prepare(const Settings& settings, double rate) {
    boop_engine_config ec;
    boop_engine_config_default(&ec);
    ec.sample_rate = rate;
    ec.voices = settings.voices;
    ec.channels = 2;
    ec.max_block_frames = kBlockFrames;
    if (!Engine::isValid(ec)) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        engine_ = std::make_unique<Engine>(ec);
        synth_ = std::make_unique<MidiSynth>(*engine_, settings.channelVoices, settings.bendRange);
        log_ = std::make_unique<LockFreeQueue<MidiLogEntry>>(kLogCapacity);
        stage_.prepare(rate, 2, settings.output.ceiling_dbtp);
        stage_.setGainDb(settings.output.gain_db);
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    rate_ = rate;
    return BOOP_OK;
}

boop_status SynthHost::setChannelSound(int channel, const boop_instrument& sound) {
    if (!synth_) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    synth_->setSound(channel, sound);
    return BOOP_OK;
}

boop_status SynthHost::setTuning(const Tuning& tuning) {
    if (!synth_) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    synth_->setTuning(tuning);
    return BOOP_OK;
}

boop_status SynthHost::setMpe(int lowerMembers, int upperMembers) {
    if (!synth_) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    synth_->setMpeZone(false, lowerMembers);
    if (upperMembers > 0) synth_->setMpeZone(true, upperMembers);
    return BOOP_OK;
}

boop_status SynthHost::setLookahead(bool on) {
    if (!synth_) return BOOP_ERROR_NOT_RUNNING;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;
    stage_.setLookahead(on);
    lookaheadChanged();
    return BOOP_OK;
}

void SynthHost::fadeOut(double seconds) noexcept {
    if (!engine_) return;
    Command c;
    c.type = Command::Type::AllNotesOff;
    c.frame = BOOP_FRAME_NOW;
    c.value = seconds;
    engine_->push(c);
    synth_->requestFade(seconds);
}

boop_status SynthHost::record(const char* path) {
    if (!engine_) return BOOP_ERROR_NOT_RUNNING;
    if (started_ || recorder_) return BOOP_ERROR_ALREADY_RUNNING;
    if (path == nullptr) return BOOP_ERROR_INVALID_ARGUMENT;
    try {
        const boop_status s = SynthRecorder::open(path, rate_, recorder_, recordWhy_);
        if (s != BOOP_OK) return s;
    } catch (...) {
        return BOOP_ERROR_OUT_OF_MEMORY;
    }
    recording_ = recorder_.get();
    return BOOP_OK;
}

boop_status SynthHost::finishRecording() {
    if (!recorder_) return BOOP_OK;
    if (started_) return BOOP_ERROR_ALREADY_RUNNING;  // the audio thread still pushes
    return recorder_->finish();
}

boop_synth_stats SynthHost::stats() const {
    boop_synth_stats s{};
    s.last_note = -1;
    s.messages = messages_.load(std::memory_order_relaxed);
    s.ignored = ignored_.load(std::memory_order_relaxed);
    if (synth_) {
        s.notes_held = synth_->notesHeld();
        s.last_note = synth_->lastNote();
        s.voices = engine_->activeVoices() + synth_->paletteVoices();
    }
    s.frames = frames_.load(std::memory_order_relaxed);
    addStats(s);
    return s;
}

void SynthHost::apply(uint64_t frame, const MidiMessage& m) BOOP_RT {
    synth_->handle(m);
    const MidiLogEntry entry{frame, m.status, m.data1, m.data2};
    if (!log_->tryPush(entry)) logDropped_.fetch_add(1, std::memory_order_relaxed);
    if (recording_ != nullptr) recording_->pushEvent(entry);
}

}  // namespace boop
