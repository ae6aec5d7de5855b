#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string>
#include <vector>
#include "TestSignals.hpp"
#include "rt/Realtime.hpp"

// The RealtimeSanitizer run of every other test means something only if the sanitizer really
// fires on a violation. This test proves it does: a child process calls a nonblocking function
// that allocates, and the parent expects RTSan's report and a failing exit.

static volatile int* leaked = nullptr;
__attribute__((noinline)) static void allocatesOnTheAudioThread() BOOP_RT {
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wfunction-effects"
#endif
    leaked = new int[16];  // deliberately forbidden
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
}

TEST_CASE("BOOP_RT marks functions [[clang::nonblocking]] under clang") {
#if defined(__clang__)
    CHECK(std::string(BOOP_SANITIZER_MODE).size() > 0);
    CHECK(__has_cpp_attribute(clang::nonblocking));
#endif
    CHECK(noexcept(allocatesOnTheAudioThread()));
}

#if defined(BOOP_RTSAN)
TEST_CASE("RealtimeSanitizer catches an allocation inside a nonblocking function") {
    int pipefd[2];
    REQUIRE(pipe(pipefd) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        allocatesOnTheAudioThread();
        _exit(0);
    }
    close(pipefd[1]);
    std::string report;
    char buf[512];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0) report.append(buf, size_t(n));
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    INFO(report);
    CHECK(report.find("RealtimeSanitizer") != std::string::npos);
    CHECK(report.find("malloc") != std::string::npos);
    CHECK_FALSE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("RealtimeSanitizer: a busy engine render (notes, steals, drums, fades) is clean") {
    testsig::EngineHandle engine(48000.0, 4);
    for (uint32_t i = 0; i < 32; ++i) {
        boop_engine_note_on(engine, i * 300, i, boop_timbre(i % BOOP_TIMBRE_COUNT), 200.0 + 20 * i, 0.8f);
        boop_engine_drum_hit(engine, i * 300, 35 + i % 20, 0.8f);
        boop_engine_note_off(engine, i * 300 + 200, i);
    }
    boop_engine_all_notes_off(engine, 12000, 0.01);
    auto x = engine.render(24000, 128);
    CHECK(x.size() == 24000);
}
#endif
