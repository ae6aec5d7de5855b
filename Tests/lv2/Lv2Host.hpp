#pragma once
// A minimal offline LV2 host for the boop.lv2 tests: lilv finds the bundle (LV2_PATH), one
// instance is run in blocks of a chosen size, MIDI events are handed to it in the atom sequence
// of the block their frame falls in, stamped with their offset in that block, as a host does.
// It offers the worker (work:schedule): what run() schedules is kept in a fixed buffer (run()
// context allocates nothing, host or plugin), worked after the block and answered before the next;
// and the log (log:log), whose messages it keeps. After each block it reads the notify port's
// sequence into Notices, as a host's property view would.
#include <lilv/lilv.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/patch/patch.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace lv2host {

constexpr const char* kBoopUri = "https://github.com/pixelboop/pixelboop-linux/lv2/boop";

// urid:map over a list of strings (the test's thread only).
struct UridMap {
    std::vector<std::string> uris;
    LV2_URID_Map map{this, &UridMap::mapUri};
    LV2_URID_Unmap unmap{this, &UridMap::unmapUri};
    static LV2_URID mapUri(LV2_URID_Map_Handle handle, const char* uri) {
        auto& self = *static_cast<UridMap*>(handle);
        for (std::size_t i = 0; i < self.uris.size(); ++i)
            if (self.uris[i] == uri) return LV2_URID(i + 1);
        self.uris.emplace_back(uri);
        return LV2_URID(self.uris.size());
    }
    static const char* unmapUri(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
        auto& self = *static_cast<UridMap*>(handle);
        return urid >= 1 && urid <= self.uris.size() ? self.uris[urid - 1].c_str() : nullptr;
    }
};

struct MidiEvent {
    uint64_t frame;  // on the host's time line, from the first frame run
    uint8_t bytes[3];
    uint32_t size = 3;  // 2 for a program change
};

// A message the plugin wrote on its notify port.
struct Notice {
    uint64_t frame = 0;     // on the host's time line
    std::string type;       // the object's type (patch#Set, patch#Ack, patch#Error)
    std::string property;   // patch:property ("" when none)
    std::string valueType;  // patch:value's atom type ("" when none)
    std::string path;       // patch:value when it is an atom:Path
    int32_t sequence = 0;   // patch:sequenceNumber (0 when none)
};

struct World {
    LilvWorld* world = lilv_world_new();
    const LilvPlugin* plugin = nullptr;
    World() {
        lilv_world_load_all(world);
        LilvNode* uri = lilv_new_uri(world, kBoopUri);
        plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
        lilv_node_free(uri);
    }
    ~World() { lilv_world_free(world); }
    uint32_t port(const char* symbol) const {
        LilvNode* s = lilv_new_string(world, symbol);
        const LilvPort* p = lilv_plugin_get_port_by_symbol(plugin, s);
        lilv_node_free(s);
        return p != nullptr ? lilv_port_get_index(plugin, p) : UINT32_MAX;
    }
};

class Host {
  public:
    // `worker` false: a host without work:schedule.
    Host(World& world, UridMap& urids, double rate, bool worker = true) : world_(world), urids_(urids), rate_(rate) {
        features_[0] = LV2_Feature{LV2_URID__map, &urids_.map};
        features_[1] = LV2_Feature{LV2_LOG__log, &log_};
        features_[2] = LV2_Feature{LV2_URID__unmap, &urids_.unmap};
        features_[3] = LV2_Feature{LV2_WORKER__schedule, &schedule_};
        for (int f = 0; f < (worker ? 4 : 3); ++f) featureList_[f] = &features_[f];
        instance_ = lilv_plugin_instantiate(world.plugin, rate, featureList_);
        if (instance_ == nullptr) return;
        midiType_ = urids_.map.map(urids_.map.handle, LV2_MIDI__MidiEvent);
        sequenceType_ = urids_.map.map(urids_.map.handle, LV2_ATOM__Sequence);
        const uint32_t ports = lilv_plugin_get_num_ports(world.plugin);
        controls_.assign(ports, 0.0f);
        for (uint32_t p = 0; p < ports; ++p) {
            const LilvPort* port = lilv_plugin_get_port_by_index(world.plugin, p);
            LilvNode* def = nullptr;
            lilv_port_get_range(world.plugin, port, &def, nullptr, nullptr);
            if (def != nullptr) controls_[p] = lilv_node_as_float(def);
            lilv_node_free(def);
            lilv_instance_connect_port(instance_, p, &controls_[p]);
        }
        lilv_instance_connect_port(instance_, world.port("midi_in"), sequence_);
        if (world.port("notify") != UINT32_MAX) lilv_instance_connect_port(instance_, world.port("notify"), notify_);
        lilv_instance_activate(instance_);
    }
    ~Host() {
        if (instance_ == nullptr) return;
        lilv_instance_deactivate(instance_);
        lilv_instance_free(instance_);
    }
    bool ok() const { return instance_ != nullptr; }
    LilvInstance* instance() { return instance_; }
    const LV2_Feature* const* features() const { return featureList_; }
    void set(const char* symbol, float value) { controls_[world_.port(symbol)] = value; }
    // A patch:Set of `property` to an atom:Path, handed in at the first frame of the next render
    // (with a patch:sequenceNumber when `sequence` > 0).
    void setPath(const char* property, const std::string& path, int32_t sequence = 0) {
        patch(LV2_PATCH__Set, property, &path, sequence, 0);
    }
    // A patch:Get of `property` (nullptr: of all), at frame `at` of the next render's first block.
    void getProperty(const char* property, int32_t sequence = 0, int64_t at = 0) {
        patch(LV2_PATCH__Get, property, nullptr, sequence, at);
    }
    // What the notify port carried, in order, since the last take (and the log's lines).
    std::vector<Notice> takeNotices() { return std::exchange(notices_, {}); }
    std::vector<std::string> takeLog() { return std::exchange(logLines_, {}); }
    // Blocks after which the notify port did not hold an atom:Sequence.
    int badNotifyBlocks() const { return badNotify_; }
    // The notify buffer's capacity offered to the next blocks (at most its size).
    void setNotifyCapacity(uint32_t bytes) { notifyCapacity_ = std::min<uint32_t>(bytes, sizeof notify_); }
    float get(const char* symbol) const { return controls_[world_.port(symbol)]; }

    // Runs `frames` frames in blocks of `block`, handing each event to the block its frame falls
    // in; left and right get what the audio outputs wrote.
    void render(std::vector<MidiEvent> events, uint64_t frames, uint32_t block, std::vector<float>& left,
                std::vector<float>& right) {
        left.assign(frames, 0.0f);
        right.assign(frames, 0.0f);
        std::size_t next = 0;
        for (uint64_t at = 0; at < frames; at += block) {
            const auto n = static_cast<uint32_t>(std::min<uint64_t>(block, frames - at));
            clearSequence();
            for (const auto& [frame, patch] : patches_) {
                const auto* atom = reinterpret_cast<const LV2_Atom*>(patch.data());
                append(frame, atom->type, atom + 1, atom->size);
            }
            patches_.clear();
            auto* notify = reinterpret_cast<LV2_Atom*>(notify_);
            notify->type = 0;
            notify->size = notifyCapacity_;
            while (next < events.size() && events[next].frame < at + n) {
                const MidiEvent& e = events[next++];
                append(static_cast<int64_t>(e.frame >= at ? e.frame - at : 0), midiType_, e.bytes, e.size);
            }
            lilv_instance_connect_port(instance_, world_.port("out_1"), left.data() + at);
            lilv_instance_connect_port(instance_, world_.port("out_2"), right.data() + at);
            lilv_instance_run(instance_, n);
            readNotify(played_ + at);
            work();
        }
        played_ += frames;
    }

  private:
    void patch(const char* type, const char* property, const std::string* path, int32_t sequence, int64_t at) {
        LV2_Atom_Forge forge;
        lv2_atom_forge_init(&forge, &urids_.map);
        std::vector<uint8_t> atom((path != nullptr ? path->size() : 0) + 256);
        lv2_atom_forge_set_buffer(&forge, atom.data(), atom.size());
        LV2_Atom_Forge_Frame frame;
        lv2_atom_forge_object(&forge, &frame, 0, id(type));
        if (sequence > 0) {
            lv2_atom_forge_key(&forge, id(LV2_PATCH__sequenceNumber));
            lv2_atom_forge_int(&forge, sequence);
        }
        if (property != nullptr) {
            lv2_atom_forge_key(&forge, id(LV2_PATCH__property));
            lv2_atom_forge_urid(&forge, id(property));
        }
        if (path != nullptr) {
            lv2_atom_forge_key(&forge, id(LV2_PATCH__value));
            lv2_atom_forge_path(&forge, path->data(), static_cast<uint32_t>(path->size()));
        }
        lv2_atom_forge_pop(&forge, &frame);
        patches_.emplace_back(at, std::move(atom));
    }
    std::string uri(LV2_URID urid) const {
        const char* text = urids_.unmap.unmap(urids_.unmap.handle, urid);
        return text != nullptr ? text : "";
    }
    // The notify port's sequence after a block that began at host frame `start`.
    void readNotify(uint64_t start) {
        const auto* seq = reinterpret_cast<const LV2_Atom_Sequence*>(notify_);
        if (seq->atom.type != sequenceType_ || seq->atom.size + sizeof(LV2_Atom) > notifyCapacity_) {
            ++badNotify_;
            return;
        }
        LV2_ATOM_SEQUENCE_FOREACH(seq, ev) {
            if (ev->body.type != id(LV2_ATOM__Object)) continue;
            const auto* object = reinterpret_cast<const LV2_Atom_Object*>(&ev->body);
            const LV2_Atom *property = nullptr, *value = nullptr, *sequence = nullptr;
            lv2_atom_object_get(object, id(LV2_PATCH__property), &property, id(LV2_PATCH__value), &value,
                                id(LV2_PATCH__sequenceNumber), &sequence, 0);
            Notice n;
            n.frame = start + static_cast<uint64_t>(ev->time.frames);
            n.type = uri(object->body.otype);
            if (property != nullptr && property->type == id(LV2_ATOM__URID))
                n.property = uri(reinterpret_cast<const LV2_Atom_URID*>(property)->body);
            if (value != nullptr) n.valueType = uri(value->type);
            if (value != nullptr && value->type == id(LV2_ATOM__Path))
                n.path.assign(static_cast<const char*>(LV2_ATOM_BODY_CONST(value)),
                              strnlen(static_cast<const char*>(LV2_ATOM_BODY_CONST(value)), value->size));
            if (sequence != nullptr && sequence->type == id(LV2_ATOM__Int))
                n.sequence = reinterpret_cast<const LV2_Atom_Int*>(sequence)->body;
            notices_.push_back(std::move(n));
        }
    }
    static int logPrintf(LV2_Log_Handle handle, LV2_URID type, const char* format, ...) {
        va_list args;
        va_start(args, format);
        const int n = logVprintf(handle, type, format, args);
        va_end(args);
        return n;
    }
    static int logVprintf(LV2_Log_Handle handle, LV2_URID type, const char* format, va_list args) {
        auto& self = *static_cast<Host*>(handle);
        char line[8192];
        const int n = std::vsnprintf(line, sizeof line, format, args);
        self.logLines_.push_back(self.uri(type) + " " + line);
        return n;
    }

    void clearSequence() {
        auto* seq = reinterpret_cast<LV2_Atom_Sequence*>(sequence_);
        seq->atom.type = sequenceType_;
        seq->atom.size = sizeof(LV2_Atom_Sequence_Body);
        seq->body.unit = 0;
        seq->body.pad = 0;
    }
    LV2_URID id(const char* uri) { return urids_.map.map(urids_.map.handle, uri); }
    void append(int64_t frame, LV2_URID type, const void* bytes, uint32_t size) {
        auto* seq = reinterpret_cast<LV2_Atom_Sequence*>(sequence_);
        LV2_Atom_Event* ev = lv2_atom_sequence_end(&seq->body, seq->atom.size);
        ev->time.frames = frame;
        ev->body.type = type;
        ev->body.size = size;
        std::memcpy(ev + 1, bytes, size);
        seq->atom.size += lv2_atom_pad_size(sizeof(LV2_Atom_Event) + size);
    }

    // work:schedule, called from run(): the request copied into the fixed buffer.
    static LV2_Worker_Status schedule(LV2_Worker_Schedule_Handle handle, uint32_t size, const void* data) {
        auto& self = *static_cast<Host*>(handle);
        if (self.workUsed_ + sizeof size + size > sizeof self.work_) return LV2_WORKER_ERR_NO_SPACE;
        std::memcpy(self.work_ + self.workUsed_, &size, sizeof size);
        std::memcpy(self.work_ + self.workUsed_ + sizeof size, data, size);
        self.workUsed_ += sizeof size + size;
        return LV2_WORKER_SUCCESS;
    }
    static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void* data) {
        auto& answers = *static_cast<std::vector<std::vector<uint8_t>>*>(handle);
        const auto* bytes = static_cast<const uint8_t*>(data);
        answers.emplace_back(bytes, bytes + size);
        return LV2_WORKER_SUCCESS;
    }
    // After a block: each request worked (as the host's worker thread would), the answers handed
    // back in run() context, before the next block.
    void work() {
        if (workUsed_ == 0) return;
        const auto* worker = static_cast<const LV2_Worker_Interface*>(
            lilv_instance_get_extension_data(instance_, LV2_WORKER__interface));
        std::vector<std::vector<uint8_t>> answers;
        for (std::size_t at = 0; at < workUsed_;) {
            uint32_t size = 0;
            std::memcpy(&size, work_ + at, sizeof size);
            worker->work(lilv_instance_get_handle(instance_), respond, &answers, size, work_ + at + sizeof size);
            at += sizeof size + size;
        }
        workUsed_ = 0;
        for (const auto& answer : answers)
            worker->work_response(lilv_instance_get_handle(instance_), static_cast<uint32_t>(answer.size()),
                                  answer.data());
    }

    World& world_;
    UridMap& urids_;
    double rate_;
    LV2_Worker_Schedule schedule_{this, &Host::schedule};
    LV2_Log_Log log_{this, &Host::logPrintf, &Host::logVprintf};
    LV2_Feature features_[4];
    const LV2_Feature* featureList_[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
    std::vector<std::pair<int64_t, std::vector<uint8_t>>> patches_;
    uint8_t work_[16384] = {};
    std::size_t workUsed_ = 0;
    LilvInstance* instance_ = nullptr;
    LV2_URID midiType_ = 0, sequenceType_ = 0;
    std::vector<float> controls_;
    alignas(8) uint8_t sequence_[16384] = {};
    alignas(8) uint8_t notify_[16384] = {};
    uint32_t notifyCapacity_ = sizeof notify_;
    std::vector<Notice> notices_;
    std::vector<std::string> logLines_;
    int badNotify_ = 0;
    uint64_t played_ = 0;
};

}  // namespace lv2host
