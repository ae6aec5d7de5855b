#include <dirent.h>
#include <doctest/doctest.h>
#include <sndfile.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "include/CAudioEngine.h"

static std::string tempDir() {
    char tmpl[] = "/tmp/boop-writer-XXXXXX";
    return mkdtemp(tmpl);
}
static int entries(const std::string& dir) {
    int n = 0;
    DIR* d = opendir(dir.c_str());
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}
static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST_CASE("file writer: temp name until commit, identical bytes for identical samples") {
    const std::string dir = tempDir();
    std::vector<float> samples(2 * 1000);
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = float(i % 100) / 100.0f - 0.5f;
    for (int round = 0; round < 2; ++round) {
        const std::string path = dir + "/out" + std::to_string(round) + ".wav";
        boop_file_writer* w = nullptr;
        REQUIRE(boop_file_writer_open(path.c_str(), 44100, 2, BOOP_SAMPLE_FLOAT32, &w) == BOOP_OK);
        REQUIRE(boop_file_writer_write(w, samples.data(), 1000) == BOOP_OK);
        CHECK(access(path.c_str(), F_OK) != 0);  // not under its name yet
        REQUIRE(boop_file_writer_commit(w) == BOOP_OK);
        CHECK(access(path.c_str(), F_OK) == 0);
        if (round == 0) sleep(1);  // a timestamp in the header (libsndfile's PEAK chunk) would show
    }
    CHECK(slurp(dir + "/out0.wav") == slurp(dir + "/out1.wav"));
    SF_INFO info{};
    SNDFILE* f = sf_open((dir + "/out0.wav").c_str(), SFM_READ, &info);
    REQUIRE(f);
    CHECK(info.frames == 1000);
    CHECK(info.channels == 2);
    CHECK((info.format & SF_FORMAT_SUBMASK) == SF_FORMAT_FLOAT);
    sf_close(f);
    CHECK(entries(dir) == 2);
}

TEST_CASE("file writer: abort leaves nothing; bad paths and extensions are refused") {
    const std::string dir = tempDir();
    boop_file_writer* w = nullptr;
    REQUIRE(boop_file_writer_open((dir + "/x.wav").c_str(), 48000, 1, BOOP_SAMPLE_INT16, &w) == BOOP_OK);
    float s[4] = {0, 0.5f, -0.5f, 0};
    boop_file_writer_write(w, s, 4);
    boop_file_writer_abort(w);
    CHECK(entries(dir) == 0);
    CHECK(boop_file_writer_open((dir + "/nope/x.wav").c_str(), 48000, 1, BOOP_SAMPLE_INT16, &w) ==
          BOOP_ERROR_CANNOT_CREATE);
    CHECK(boop_file_writer_open((dir + "/x.xyz").c_str(), 48000, 1, BOOP_SAMPLE_INT16, &w) ==
          BOOP_ERROR_INVALID_ARGUMENT);
    REQUIRE(boop_file_writer_open((dir + "/x.flac").c_str(), 48000, 1, BOOP_SAMPLE_INT16, &w) == BOOP_OK);
    boop_file_writer_write(w, s, 4);
    CHECK(boop_file_writer_commit(w) == BOOP_OK);
    CHECK(entries(dir) == 1);
}

TEST_CASE("file writer: a .wav announced past 4 GiB is RF64, an ordinary one stays RIFF") {
    const std::string dir = tempDir();
    float s[4] = {0, 0.25f, -0.25f, 0};
    // 2^30 mono float frames = 4 GiB of data: one past what a RIFF WAV can hold.
    const uint64_t frames[2] = {UINT64_C(1) << 30, 44100};
    const char* magic[2] = {"RF64", "RIFF"};
    for (int i = 0; i < 2; ++i) {
        const std::string path = dir + "/long" + std::to_string(i) + ".wav";
        boop_file_writer* w = nullptr;
        REQUIRE(boop_file_writer_open_sized(path.c_str(), 44100, 1, BOOP_SAMPLE_FLOAT32, frames[i], &w) == BOOP_OK);
        REQUIRE(boop_file_writer_write(w, s, 4) == BOOP_OK);
        REQUIRE(boop_file_writer_commit(w) == BOOP_OK);
        CHECK(slurp(path).substr(0, 4) == magic[i]);
        SF_INFO info{};
        SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
        REQUIRE(f);
        CHECK(info.frames == 4);
        sf_close(f);
    }
}

TEST_CASE("file writer: a commit that fails keeps the writer so the error can be read") {
    const std::string dir = tempDir();
    boop_file_writer* w = nullptr;
    // The final name is a directory: the rename fails after the data was written.
    const std::string target = dir + "/taken";
    REQUIRE(mkdir(target.c_str(), 0700) == 0);
    REQUIRE(mkdir((target + "/inside").c_str(), 0700) == 0);
    REQUIRE(rename(target.c_str(), (dir + "/x.wav").c_str()) == 0);  // a non-empty directory named x.wav
    REQUIRE(boop_file_writer_open((dir + "/x.wav").c_str(), 44100, 1, BOOP_SAMPLE_INT16, &w) == BOOP_OK);
    float s[4] = {0, 0.5f, -0.5f, 0};
    REQUIRE(boop_file_writer_write(w, s, 4) == BOOP_OK);
    CHECK(boop_file_writer_commit(w) == BOOP_ERROR_IO);
    CHECK(std::string(boop_file_writer_error(w)).size() > 0);
    boop_file_writer_abort(w);
    CHECK(entries(dir) == 1);  // only the directory: no temporary file left
}

// Written on the writer's own thread: every frame arrives, in order, whatever sizes the calls
// have (here crossing the writer's slabs at odd places), and two runs give the same bytes.
TEST_CASE("file writer: calls of any size arrive whole and in order") {
    const std::string dir = tempDir();
    const int channels = 2, total = 300001;
    std::vector<float> samples(static_cast<size_t>(total) * channels);
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<float>((i * 7919) % 2001) / 1000.0f - 1.0f;
    std::string bytes[2];
    for (int run = 0; run < 2; ++run) {
        const std::string path = dir + "/odd" + std::to_string(run) + ".wav";
        boop_file_writer* w = nullptr;
        REQUIRE(boop_file_writer_open(path.c_str(), 48000, channels, BOOP_SAMPLE_FLOAT32, &w) == BOOP_OK);
        int done = 0, size = 1;
        while (done < total) {
            const int n = size < total - done ? size : total - done;
            REQUIRE(boop_file_writer_write(w, samples.data() + static_cast<size_t>(done) * channels, n) == BOOP_OK);
            done += n;
            size = size * 3 + 1;  // 1, 4, 13, ... 88573: smaller and larger than a slab
        }
        REQUIRE(boop_file_writer_commit(w) == BOOP_OK);
        SF_INFO info{};
        SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
        REQUIRE(f != nullptr);
        REQUIRE(info.frames == total);
        std::vector<float> back(samples.size());
        CHECK(sf_readf_float(f, back.data(), total) == total);
        sf_close(f);
        CHECK(back == samples);
        bytes[run] = slurp(path);
    }
    CHECK(bytes[0] == bytes[1]);
}

// A write the writing thread cannot finish (here the file-size limit, as `ulimit -f` sets it) is
// reported by a later write or by commit, and no file is left behind, not even the temporary one.
TEST_CASE("file writer: an error met on the writing thread fails the file and leaves nothing") {
    const std::string dir = tempDir();
    struct rlimit old {};
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 1 << 20;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    boop_file_writer* w = nullptr;
    REQUIRE(boop_file_writer_open((dir + "/big.wav").c_str(), 48000, 2, BOOP_SAMPLE_FLOAT32, &w) == BOOP_OK);
    std::vector<float> block(2 * 4096, 0.25f);
    boop_status status = BOOP_OK;
    for (int i = 0; i < 200 && status == BOOP_OK; ++i) status = boop_file_writer_write(w, block.data(), 4096);
    if (status == BOOP_OK) status = boop_file_writer_commit(w);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    CHECK(status == BOOP_ERROR_IO);
    CHECK(std::string(boop_file_writer_error(w)).size() > 0);
    boop_file_writer_abort(w);
    int all = 0;
    DIR* d = opendir(dir.c_str());
    while (dirent* e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") ++all;
    closedir(d);
    CHECK(all == 0);
}

TEST_CASE("file writer: an output stage handed to it gives the samples the stage gives in the caller's thread") {
    // 200,000 stereo frames (three slabs and a part), loud enough for the limiter to act, written
    // in blocks of 8192 frames; the same stage run by the caller, block by block, as the reference.
    const uint32_t frames = 200000, block = 8192;
    std::vector<float> input(2 * frames);
    for (uint32_t i = 0; i < frames; ++i) {
        const float x = 1.6f * std::sin(0.031f * float(i)) * (i % 40000 < 20000 ? 1.0f : 0.3f);
        input[2 * i] = x;
        input[2 * i + 1] = -0.7f * x;
    }
    boop_output_config config;
    boop_output_config_default(&config);
    boop_output* reference = nullptr;
    REQUIRE(boop_output_create(&config, 44100, 2, &reference) == BOOP_OK);
    std::vector<float> expected, work;
    for (uint32_t done = 0; done < frames; done += block) {
        const uint32_t n = std::min(block, frames - done);
        work.assign(input.begin() + 2 * done, input.begin() + 2 * (done + n));
        uint32_t aligned = 0;
        REQUIRE(boop_output_process(reference, work.data(), n, &aligned) == BOOP_OK);
        expected.insert(expected.end(), work.begin(), work.begin() + 2 * aligned);
    }
    work.assign(2 * boop_output_latency_frames(reference), 0.0f);
    uint32_t tail = 0;
    REQUIRE(boop_output_finish(reference, work.data(), boop_output_latency_frames(reference), &tail) == BOOP_OK);
    expected.insert(expected.end(), work.begin(), work.begin() + 2 * tail);
    boop_output_destroy(reference);
    REQUIRE(expected.size() == input.size());

    const std::string dir = tempDir(), path = dir + "/limited.wav";
    boop_output* stage = nullptr;
    REQUIRE(boop_output_create(&config, 44100, 2, &stage) == BOOP_OK);
    boop_output* mono = nullptr;
    REQUIRE(boop_output_create(&config, 44100, 1, &mono) == BOOP_OK);
    boop_file_writer* w = nullptr;
    REQUIRE(boop_file_writer_open(path.c_str(), 44100, 2, BOOP_SAMPLE_FLOAT32, &w) == BOOP_OK);
    CHECK(boop_file_writer_set_output(w, mono) == BOOP_ERROR_INVALID_ARGUMENT);  // other channels
    REQUIRE(boop_file_writer_set_output(w, stage) == BOOP_OK);
    for (uint32_t done = 0; done < frames; done += block)
        REQUIRE(boop_file_writer_write(w, input.data() + 2 * done, std::min(block, frames - done)) == BOOP_OK);
    CHECK(boop_file_writer_set_output(w, stage) == BOOP_ERROR_INVALID_ARGUMENT);  // frames written already
    REQUIRE(boop_file_writer_commit(w) == BOOP_OK);
    boop_output_destroy(stage);
    boop_output_destroy(mono);
    SF_INFO info{};
    SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
    REQUIRE(f);
    REQUIRE(info.frames == frames);
    std::vector<float> got(2 * frames);
    CHECK(sf_readf_float(f, got.data(), frames) == frames);
    sf_close(f);
    CHECK(got == expected);
}
