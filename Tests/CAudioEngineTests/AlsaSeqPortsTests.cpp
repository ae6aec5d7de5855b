// The sequencer clients' shared opening (AlsaSeqPorts.cpp): a client is opened only once its
// device is there to use, and otherwise the answer is nullptr and one line saying why. Listing and
// finding the other clients' ports (listSeqPorts, findSeqPort) need a running sequencer, which a
// machine without /dev/snd/seq has not: those are left to the live tests (LiveAlsa*Tests), and
// matchSeqPort's choice among ports to AlsaSeqInputTests.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "backend/alsa/AlsaSeqPorts.hpp"

TEST_CASE("a sequencer device that is not there: no client, and why names the device and the error") {
    std::string why;
    snd_seq_t* seq = boop::openSeqClient("/nonexistent/boop/seq", "boop test", 0, why);
    CHECK(seq == nullptr);
    CHECK(why == "no ALSA sequencer (/nonexistent/boop/seq: No such file or directory)");
}

TEST_CASE("a device that is there but no sequencer behind it: the sequencer's refusal, in one line") {
    if (access("/dev/snd/seq", F_OK) == 0) {
        MESSAGE("this machine has an ALSA sequencer: its refusal cannot be shown here");
        return;
    }
    // Readable and writable, so the device check passes; snd_seq_open then finds no sequencer.
    char path[] = "/tmp/boop-seq-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    std::string why;
    snd_seq_t* seq = boop::openSeqClient(path, "boop test", SND_SEQ_NONBLOCK, why);
    CHECK(seq == nullptr);
    CHECK(why.rfind("the ALSA sequencer refused a client: ", 0) == 0);
    CHECK(why.find('\n') == std::string::npos);
    std::remove(path);
}
