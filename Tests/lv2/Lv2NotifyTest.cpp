// boop.lv2's notify port in the offline host (Lv2Host.hpp): a patch:Get answered with the tuning's
// files as patch:Set messages (atom:Path, "" for none), the files in force reported after a
// patch:Set was worked (with its patch:Ack) and after a state restore, and a file that makes no
// tuning reported (log:Error, patch:Error, the previous files) while the previous tuning plays on.
#include <doctest/doctest.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/log/log.h>
#include <lv2/patch/patch.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Lv2Host.hpp"
#include "ToneFit.hpp"

using lv2host::Host;
using lv2host::Notice;

namespace {

constexpr const char* kScl = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#scl";
constexpr const char* kKbm = "https://github.com/pixelboop/pixelboop-linux/lv2/boop#kbm";
const std::string kSet = LV2_PATCH__Set;

lv2host::World& world() {
    static lv2host::World w;
    return w;
}

// The test's Scala files in a folder of their own, removed at the end.
struct Files {
    std::string dir;
    std::vector<std::string> written;
    Files() {
        char name[] = "/tmp/boop-lv2-notify-XXXXXX";
        if (mkdtemp(name) != nullptr) dir = name;
    }
    ~Files() {
        for (const std::string& path : written) std::remove(path.c_str());
        rmdir(dir.c_str());
    }
    std::string write(const char* file, const std::string& text) {
        const std::string path = dir + "/" + file;
        std::FILE* f = std::fopen(path.c_str(), "w");
        REQUIRE(f != nullptr);
        std::fputs(text.c_str(), f);
        std::fclose(f);
        written.push_back(path);
        return path;
    }
    std::string edo19() {
        std::string scl = "! 19edo.scl\n19-tone equal temperament\n19\n";
        for (int i = 1; i < 19; ++i) {
            char cents[32];
            std::snprintf(cents, sizeof cents, "%.10f\n", 1200.0 * i / 19);
            scl += cents;
        }
        return write("19edo.scl", scl + "2/1\n");
    }
    std::string a440() { return write("a440.kbm", "! a440.kbm\n0\n0\n127\n60\n69\n440.0\n19\n"); }
};

// One block of 256 frames: what the plugin said in it (the worker answers after a block, so a
// request handed in shows in the next one).
std::vector<Notice> block(Host& host) {
    std::vector<float> l, r;
    host.render({}, 256, 256, l, r);
    return host.takeNotices();
}

void checkSet(const Notice& n, const char* property, const std::string& path, uint64_t frame, int32_t sequence = 0) {
    INFO("property ", property, ", path '", path, "'");
    CHECK(n.type == kSet);
    CHECK(n.property == property);
    CHECK(n.valueType == LV2_ATOM__Path);
    CHECK(n.path == path);
    CHECK(n.frame == frame);
    CHECK(n.sequence == sequence);
}

void print(const char* what, const std::vector<Notice>& notices) {
    for (const Notice& n : notices)
        std::printf("notify after %s: frame %llu %s %s '%s' seq %d\n", what, static_cast<unsigned long long>(n.frame),
                    n.type.substr(n.type.find('#') + 1).c_str(), n.property.substr(n.property.find('#') + 1).c_str(),
                    n.path.c_str(), n.sequence);
}

// The frequency key 64 plays (tone voice) in a fresh 1-second render.
double key64Hz(Host& host, double expected) {
    std::vector<float> l, r;
    host.render({{0, {0x90, 64, 100}}, {24000, {0x80, 64, 0}}}, 48000, 256, l, r);
    return tonefit::fitSine(l, 48000.0, 4800, 19200, expected).frequency;
}

}  // namespace

TEST_CASE("notify: a patch:Get is answered with both paths, a patch:Set is reported once worked") {
    REQUIRE(world().plugin != nullptr);
    Files files;
    REQUIRE(!files.dir.empty());
    const std::string scl = files.edo19(), kbm = files.a440();
    lv2host::UridMap urids;
    Host host(world(), urids, 48000.0);
    REQUIRE(host.ok());
    CHECK(block(host).empty());  // nothing to say unasked

    host.getProperty(nullptr, 0, 37);  // every property, on frame 37 of the next block
    std::vector<Notice> got = block(host);
    print("patch:Get", got);
    REQUIRE(got.size() == 2);
    checkSet(got[0], kScl, "", 256 + 37);
    checkSet(got[1], kKbm, "", 256 + 37);

    host.setPath(kScl, scl, 7);
    CHECK(block(host).empty());  // worked after this block
    got = block(host);
    print("patch:Set of the scale (sequence 7)", got);
    REQUIRE(got.size() == 3);
    checkSet(got[0], kScl, scl, 768);
    checkSet(got[1], kKbm, "", 768);
    CHECK(got[2].type == LV2_PATCH__Ack);
    CHECK(got[2].sequence == 7);
    CHECK(got[2].frame == 768);

    host.setPath(kKbm, kbm);
    block(host);
    got = block(host);
    REQUIRE(got.size() == 2);  // no sequence number: no Ack
    checkSet(got[0], kScl, scl, 1280);
    checkSet(got[1], kKbm, kbm, 1280);

    host.getProperty(kKbm, 12, 100);  // one property, with a sequence number the answer carries
    got = block(host);
    print("patch:Get of the mapping (sequence 12)", got);
    REQUIRE(got.size() == 1);
    checkSet(got[0], kKbm, kbm, 1536 + 100, 12);
    host.getProperty("urn:boop:no-such-property");
    CHECK(block(host).empty());
    host.getProperty("urn:boop:no-such-property", 13);  // numbered: answered with an error
    got = block(host);
    REQUIRE(got.size() == 1);
    CHECK(got[0].type == LV2_PATCH__Error);
    CHECK(got[0].sequence == 13);
    CHECK(host.takeLog().empty());
    CHECK(host.badNotifyBlocks() == 0);
}

TEST_CASE("notify: a scale that makes no tuning is reported and the previous one plays on") {
    Files files;
    REQUIRE(!files.dir.empty());
    const std::string scl = files.edo19();
    const std::string bad = files.write("bad.scl", "! bad.scl\nnot a scale\nseven\n100.0\n");
    lv2host::UridMap urids;
    Host host(world(), urids, 48000.0);
    REQUIRE(host.ok());
    host.set("voice", 3);  // the pure sine
    host.setPath(kScl, scl);
    block(host);
    block(host);

    host.setPath(kScl, bad, 9);
    block(host);
    const std::vector<Notice> got = block(host);
    print("patch:Set of a bad scale (sequence 9)", got);
    REQUIRE(got.size() == 3);
    checkSet(got[0], kScl, scl, 768);  // the file still in force, so a host's view goes back to it
    checkSet(got[1], kKbm, "", 768);
    CHECK(got[2].type == LV2_PATCH__Error);
    CHECK(got[2].sequence == 9);
    const std::vector<std::string> log = host.takeLog();
    for (const std::string& line : log) std::printf("log: %s", line.c_str());
    REQUIRE(log.size() == 1);
    CHECK(log[0].rfind(LV2_LOG__Error, 0) == 0);
    CHECK(log[0].find(bad) != std::string::npos);

    // Key 64 plays 19-EDO still: 4 steps above Scala's default middle C.
    const double e4 = 261.6255653 * std::exp2(4.0 / 19);
    const double hz = key64Hz(host, e4);
    std::printf("after the bad scale, key 64: %.6f Hz (19-EDO %.6f, 12-TET 329.627557), %+.6f cent\n", hz, e4,
                tonefit::cents(hz, e4));
    CHECK(std::fabs(tonefit::cents(hz, e4)) < 0.01);
    host.getProperty(kScl);
    const std::vector<Notice> again = block(host);
    REQUIRE(again.size() == 1);
    CHECK(again[0].path == scl);
}

TEST_CASE("notify: a state restore reports the files it set, or the equal temperament it fell back to") {
    Files files;
    REQUIRE(!files.dir.empty());
    const std::string scl = files.edo19(), kbm = files.a440();
    lv2host::UridMap urids;
    Host first(world(), urids, 48000.0);
    REQUIRE(first.ok());
    first.setPath(kScl, scl);
    first.setPath(kKbm, kbm);
    block(first);
    first.takeNotices();
    LilvState* state = lilv_state_new_from_instance(world().plugin, first.instance(), &urids.map, nullptr, nullptr,
                                                    nullptr, nullptr, nullptr, nullptr, 0, first.features());
    REQUIRE(state != nullptr);

    Host restored(world(), urids, 48000.0);
    REQUIRE(restored.ok());
    block(restored);
    lilv_state_restore(state, restored.instance(), nullptr, nullptr, 0, restored.features());
    std::vector<Notice> got = block(restored);
    print("state restore", got);
    REQUIRE(got.size() == 2);
    checkSet(got[0], kScl, scl, 256);
    checkSet(got[1], kKbm, kbm, 256);
    CHECK(restored.takeLog().empty());

    // The same state once its scale is gone: said through the log, 12-TET in force and reported.
    std::remove(scl.c_str());
    Host moved(world(), urids, 48000.0);
    REQUIRE(moved.ok());
    moved.set("voice", 3);
    lilv_state_restore(state, moved.instance(), nullptr, nullptr, 0, moved.features());
    lilv_state_free(state);
    got = block(moved);
    print("state restore without its scale", got);
    REQUIRE(got.size() == 2);
    checkSet(got[0], kScl, "", 0);
    checkSet(got[1], kKbm, "", 0);
    const std::vector<std::string> log = moved.takeLog();
    REQUIRE(log.size() == 1);
    CHECK(log[0].find(scl) != std::string::npos);
    CHECK(std::fabs(tonefit::cents(key64Hz(moved, 329.6275569), 329.6275569)) < 0.01);
}

TEST_CASE("notify: a message the buffer has no room for waits for the next block") {
    lv2host::UridMap urids;
    Host host(world(), urids, 48000.0);
    REQUIRE(host.ok());
    host.setNotifyCapacity(64);  // an empty sequence and not one patch:Set
    host.getProperty(nullptr);
    CHECK(block(host).empty());
    host.setNotifyCapacity(16384);
    const std::vector<Notice> got = block(host);
    REQUIRE(got.size() == 2);
    checkSet(got[0], kScl, "", 256);
    checkSet(got[1], kKbm, "", 256);
    CHECK(host.badNotifyBlocks() == 0);
}

TEST_CASE("notify: without the host's worker a patch:Set is refused with the files in force") {
    lv2host::UridMap urids;
    Host host(world(), urids, 48000.0, false);
    REQUIRE(host.ok());
    host.setPath(kScl, "/tmp/any.scl", 5);
    const std::vector<Notice> got = block(host);
    print("patch:Set without a worker (sequence 5)", got);
    REQUIRE(got.size() == 2);
    checkSet(got[0], kScl, "", 0);  // the tuning is set by state restore only
    CHECK(got[1].type == LV2_PATCH__Error);
    CHECK(got[1].sequence == 5);
    CHECK(got[1].frame == 0);
}
