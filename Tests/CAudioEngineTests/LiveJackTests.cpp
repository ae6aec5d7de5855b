// Live tests of the JACK backend against a private jackd2 with the dummy driver (48 kHz, 64-frame
// periods), started under its own server name. Label `live`; scripts/jack-tests.sh runs this
// program from the RealtimeSanitizer and ThreadSanitizer builds, so the process callbacks are
// checked at run time on the server's real-time thread.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <string>
#include <thread>

#include "AlsaTestSupport.hpp"
#include "include/CAudioEngine.h"

extern char** environ;

using namespace boop_test;

namespace {

void sleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// A jackd of its own; JACK_DEFAULT_SERVER makes every client in this process talk to it.
class JackServer {
  public:
    JackServer() {
        // One name for every run: a server that died leaves its slot in libjack's registry (eight
        // in all) until a server of the same name reclaims it.
        name_ = "boop-live-tests";
        setenv("JACK_DEFAULT_SERVER", name_.c_str(), 1);
        setenv("JACK_NO_AUDIO_RESERVATION", "1", 1);
        for (const char* rt : {"-R", "-r"}) {
            const char* argv[] = {"jackd", rt,   "-n", name_.c_str(), "-d",   "dummy", "-r",
                                  "48000", "-p", "64", "-w",          "1333", nullptr};
            posix_spawn_file_actions_t actions;
            posix_spawn_file_actions_init(&actions);
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
            const int err = posix_spawnp(&pid_, "jackd", &actions, nullptr, const_cast<char**>(argv), environ);
            posix_spawn_file_actions_destroy(&actions);
            if (err != 0) return;
            for (int i = 0; i < 50; ++i) {
                if (runAndCapture("jack_lsp -s '" + name_ + "' 2>/dev/null").find("system:playback_1") !=
                    std::string::npos)
                    return;
                if (waitpid(pid_, nullptr, WNOHANG) == pid_) break;
                sleepSeconds(0.1);
            }
            kill(SIGKILL);
        }
    }
    ~JackServer() { kill(SIGTERM); }
    JackServer(const JackServer&) = delete;
    JackServer& operator=(const JackServer&) = delete;

    bool ok() const { return pid_ > 0; }
    void kill(int signal) {
        if (pid_ <= 0) return;
        ::kill(pid_, signal);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

  private:
    std::string name_;
    pid_t pid_ = -1;
};

}  // namespace

TEST_CASE("JACK: no server is DEVICE_UNAVAILABLE (none is started)") {
    setenv("JACK_DEFAULT_SERVER", "boop-no-such-server", 1);
    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.backend = BOOP_BACKEND_JACK;
    boop_playback* pb = reinterpret_cast<boop_playback*>(0x1);
    CHECK(boop_playback_open(&cfg, 48000, 2, &pb) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(pb == nullptr);
    boop_capture_config cc;
    boop_capture_config_default(&cc);
    cc.backend = BOOP_BACKEND_JACK;
    boop_capture* cap = nullptr;
    CHECK(boop_capture_open(&cc, &cap) == BOOP_ERROR_DEVICE_UNAVAILABLE);
    boop_device_list* list = nullptr;
    CHECK(boop_device_list_create_jack(&list) == BOOP_ERROR_DEVICE_UNAVAILABLE);
}

TEST_CASE("JACK: the engine plays at the server's rate and pace; capture records; the server's death is DEVICE_LOST") {
    JackServer server;
    REQUIRE(server.ok());

    boop_device_list* list = nullptr;
    REQUIRE(boop_device_list_create_jack(&list) == BOOP_OK);
    CHECK(boop_device_list_count(list) >= 4);  // system:capture_1/2, system:playback_1/2
    boop_device_list_destroy(list);

    boop_playback_config cfg;
    boop_playback_config_default(&cfg);
    cfg.backend = BOOP_BACKEND_JACK;
    cfg.client_name = "boop-test";
    boop_playback* pb = nullptr;
    REQUIRE(boop_playback_open(&cfg, 44100, 2, &pb) == BOOP_OK);
    const boop_playback_info info = boop_playback_get_info(pb);
    CHECK(info.sample_rate == 48000);  // the server's rate wins
    CHECK(info.period_frames == 64);

    boop_engine_config ec;
    boop_engine_config_default(&ec);
    ec.sample_rate = info.sample_rate;
    ec.channels = 2;
    boop_engine* engine = nullptr;
    REQUIRE(boop_engine_create(&ec, &engine) == BOOP_OK);
    REQUIRE(boop_engine_note_on(engine, 0, 1, BOOP_TIMBRE_MELODY, 440.0, 0.6f) == BOOP_OK);
    REQUIRE(boop_playback_start(pb, boop_engine_source(engine)) == BOOP_OK);

    boop_capture_config cc;
    boop_capture_config_default(&cc);
    cc.backend = BOOP_BACKEND_JACK;
    cc.client_name = "boop-test-in";
    cc.channels = 2;
    boop_capture* cap = nullptr;
    REQUIRE(boop_capture_open(&cc, &cap) == BOOP_OK);
    CHECK(boop_capture_get_info(cap).sample_rate == 48000);
    REQUIRE(boop_capture_start(cap) == BOOP_OK);

    // Paced by the server's clock: one second of wall time is 48000 frames, give or take the
    // cycles in flight when the two readings were taken.
    sleepSeconds(0.3);
    const double t0 = nowSeconds();
    const uint64_t f0 = boop_playback_get_stats(pb).frames_written;
    sleepSeconds(1.0);
    const double seconds = nowSeconds() - t0;
    const uint64_t frames = boop_playback_get_stats(pb).frames_written - f0;
    MESSAGE("played " << frames << " frames in " << seconds << " s, xruns " << boop_playback_get_stats(pb).xruns);
    CHECK(double(frames) == doctest::Approx(48000.0 * seconds).epsilon(0.05));
    CHECK(boop_playback_get_stats(pb).running == 1);
    CHECK(boop_engine_active_voices(engine) >= 1);
    // The dummy driver's capture ports carry silence; what matters is that they arrive on time.
    const uint32_t got = boop_capture_wait(cap, 24000, 2000);
    CHECK(got >= 24000);

    server.kill(SIGKILL);
    const double killed = nowSeconds();
    while ((boop_playback_get_stats(pb).error == BOOP_OK || boop_capture_get_stats(cap).error == BOOP_OK) &&
           nowSeconds() - killed < 5.0)
        sleepSeconds(0.01);
    MESSAGE("the server's death noticed after " << nowSeconds() - killed << " s");
    CHECK(boop_playback_get_stats(pb).error == BOOP_ERROR_DEVICE_LOST);
    CHECK(boop_playback_get_stats(pb).running == 0);
    CHECK(boop_capture_get_stats(cap).error == BOOP_ERROR_DEVICE_LOST);
    boop_playback_stop(pb, 1);  // never hangs on a dead server
    boop_playback_destroy(pb);
    boop_capture_destroy(cap);
    boop_engine_destroy(engine);
}
