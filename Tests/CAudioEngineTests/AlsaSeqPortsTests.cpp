// The sequencer clients' shared opening (AlsaSeqPorts.cpp): a client is opened only once its
// device is there to use, and otherwise the answer is nullptr (DEVICE_UNAVAILABLE with its port)
// and one line saying why; a subscription's peer is looked for only in an open client. Listing and
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

TEST_CASE("opening a client with its port where there is no sequencer: unavailable, no client, and why") {
    snd_seq_t* seq = nullptr;
    int port = -1;
    std::string why;
    const boop_status s = boop::openSeqClientPort(seq, port, "/nonexistent/boop/seq", "boop test", 0, "midi_in",
                                                  SND_SEQ_PORT_CAP_WRITE, SND_SEQ_PORT_TYPE_APPLICATION, why);
    CHECK(s == BOOP_ERROR_DEVICE_UNAVAILABLE);
    CHECK(seq == nullptr);
    CHECK(port == -1);
    CHECK(why == "no ALSA sequencer (/nonexistent/boop/seq: No such file or directory)");
}

TEST_CASE("a subscription's peer asked of a client that is not open: not running, before the spec is read") {
    boop::SeqPort found;
    std::string why;
    CHECK(boop::findSeqPeer(nullptr, SND_SEQ_PORT_CAP_READ, "anything", "source", found, why) ==
          BOOP_ERROR_NOT_RUNNING);
    CHECK(boop::findSeqPeer(nullptr, SND_SEQ_PORT_CAP_READ, nullptr, "source", found, why) == BOOP_ERROR_NOT_RUNNING);
    CHECK(why.empty());
}
