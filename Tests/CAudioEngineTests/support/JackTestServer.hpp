#pragma once
// A private jackd2 (dummy driver) under its own server name for the live JACK tests, and the
// small waits they share.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "AlsaTestSupport.hpp"

namespace boop_test {

inline void sleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// How long jackd may take to take clients: generous, since a sanitizer build on a loaded two-core
// machine is slow to do anything; a server that is up is found within 0.1 s of being up.
constexpr double kServerStartLimit = 60.0;

inline std::string findInPath(const char* program) {
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        const std::string candidate = dirs.substr(start, end - start) + "/" + program;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return {};
}

// A jackd of its own; JACK_DEFAULT_SERVER makes every client in this process talk to it. It never
// outlives the test: the destructor stops it on every exit path (a failed REQUIRE throws through
// it), and the server is started with PR_SET_PDEATHSIG, so the kernel kills it when this process
// dies any other way (a crash, an abort, ctest's timeout).
class JackServer {
  public:
    JackServer() {
        // One name for every run: a server that died leaves its slot in libjack's registry (eight
        // in all) until a server of the same name reclaims it. BOOP_LIVE_JACK_SERVER names another
        // (a second run beside the test command's, which uses this one).
        const char* named = getenv("BOOP_LIVE_JACK_SERVER");
        name_ = named != nullptr && named[0] != '\0' ? named : "boop-live-tests";
        setenv("JACK_DEFAULT_SERVER", name_.c_str(), 1);
        setenv("JACK_NO_AUDIO_RESERVATION", "1", 1);
        const std::string jackd = findInPath("jackd");
        if (jackd.empty()) {
            why_ = "jackd is not on PATH";
            return;
        }
        // A server of that name that this test did not start (left by a run that died before
        // servers were tied to their test) would take our clients: say so rather than use it.
        if (runAndCapture("jack_lsp -s '" + name_ + "' 2>/dev/null").find("system:") != std::string::npos) {
            why_ = "a JACK server named " + name_ + " is already running, not started by this test; stop it first: " +
                   runAndCapture("pgrep -a -x jackd | grep -e '-n " + name_ + "'");
            return;
        }
        for (const char* rt : {"-R", "-r"})
            if (start(jackd, rt)) return;
    }

    // One start of jackd (with real-time scheduling, "-R", or without, "-r"); true once it takes
    // clients, false with why_ set when it exited or did not come up within the limit.
    bool start(const std::string& jackd, const char* rt) {
        const char* argv[] = {"jackd", rt,   "-n", name_.c_str(), "-d",   "dummy", "-r",
                              "48000", "-p", "64", "-w",          "1333", nullptr};
        const pid_t parent = getpid();
        pid_ = fork();
        if (pid_ < 0) {
            why_ = "fork failed";
            return false;
        }
        if (pid_ == 0) {
            // Only async-signal-safe calls between fork and exec.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
            const int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, 1);
                dup2(null, 2);
            }
            execv(jackd.c_str(), const_cast<char**>(argv));
            _exit(127);
        }
        const double started = nowSeconds();
        while (nowSeconds() - started < kServerStartLimit) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;  // exited: try without real-time scheduling, or give up
                break;
            }
            // Our own server's ports, and it is still ours: not a stale server of that name.
            if (runAndCapture("jack_lsp -s '" + name_ + "' 2>/dev/null").find("system:playback_1") !=
                    std::string::npos &&
                waitpid(pid_, nullptr, WNOHANG) == 0)
                return true;
            sleepSeconds(0.1);
        }
        if (pid_ > 0) {
            why_ = std::string("jackd ") + rt + " did not take clients within " +
                   std::to_string(int(kServerStartLimit)) + " s";
            kill(SIGKILL);
        } else {
            why_ = std::string("jackd ") + rt + " exited at start";
        }
        return false;
    }
    ~JackServer() { stop(); }
    JackServer(const JackServer&) = delete;
    JackServer& operator=(const JackServer&) = delete;

    bool ok() const { return pid_ > 0; }
    const std::string& why() const { return why_; }

    // SIGTERM, and SIGKILL if it is still there 10 s later.
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        const double t0 = nowSeconds();
        while (nowSeconds() - t0 < 10.0) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            sleepSeconds(0.02);
        }
        kill(SIGKILL);
    }
    void kill(int signal) {
        if (pid_ <= 0) return;
        ::kill(pid_, signal);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

  private:
    std::string name_, why_;
    pid_t pid_ = -1;
};

}  // namespace boop_test
