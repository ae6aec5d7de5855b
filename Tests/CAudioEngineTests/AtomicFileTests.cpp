// The one atomic file writer (CAudioEngine.h, "Atomic files"): whole-buffer writes, streamed
// writes with a patch, links followed, modes kept, and nothing left behind by any failure.
#include <dirent.h>
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "include/CAudioEngine.h"

namespace {

std::string tempDir() {
    char tmpl[] = "/tmp/boop-atomic-XXXXXX";
    return mkdtemp(tmpl);
}

// Every name in `dir`, hidden ones too (a leftover `.boop-XXXXXX` is what is looked for).
std::vector<std::string> names(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    while (dirent* e = readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) out.push_back(e->d_name);
    closedir(d);
    return out;
}

std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

mode_t modeOf(const std::string& p) {
    struct stat st;
    REQUIRE(stat(p.c_str(), &st) == 0);
    return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("atomic file: a whole buffer replaces the target; only the target is left") {
    const std::string dir = tempDir();
    const std::string path = dir + "/a.json";
    for (const char* text : {"first", "second, longer"}) {
        char why[128] = "x";
        REQUIRE(boop_file_write_atomic(path.c_str(), text, std::strlen(text), 0, BOOP_DURABILITY_SYNC, why,
                                       sizeof why) == BOOP_OK);
        CHECK(std::string(why).empty());
        CHECK(slurp(path) == text);
    }
    CHECK(names(dir) == std::vector<std::string>{"a.json"});
    // A render's mode: 0666 less the umask, not mkstemp's 0600.
    const mode_t mask = umask(022);
    REQUIRE(boop_file_write_atomic(path.c_str(), "x", 1, 0, BOOP_DURABILITY_RENAME, nullptr, 0) == BOOP_OK);
    CHECK(modeOf(path) == 0644);
    umask(mask);
}

TEST_CASE("atomic file: streamed writes and a patch at an offset; nothing under the name before commit") {
    const std::string dir = tempDir();
    const std::string path = dir + "/s.mid";
    boop_atomic_file* f = nullptr;
    REQUIRE(boop_atomic_file_open(path.c_str(), 0, &f, nullptr, 0) == BOOP_OK);
    REQUIRE(boop_atomic_file_write(f, "MThd0000", 8) == BOOP_OK);
    REQUIRE(boop_atomic_file_write(f, "tail", 4) == BOOP_OK);
    REQUIRE(boop_atomic_file_write_at(f, 4, "1234", 4) == BOOP_OK);
    CHECK(access(path.c_str(), F_OK) != 0);
    CHECK(names(dir).size() == 1);  // the temporary file
    CHECK(names(dir)[0].rfind(".boop-", 0) == 0);
    REQUIRE(boop_atomic_file_commit(f, BOOP_DURABILITY_RENAME) == BOOP_OK);
    CHECK(slurp(path) == "MThd1234tail");
    CHECK(names(dir) == std::vector<std::string>{"s.mid"});
}

TEST_CASE("atomic file: abort leaves nothing; a missing folder is CANNOT_CREATE with the reason") {
    const std::string dir = tempDir();
    boop_atomic_file* f = nullptr;
    REQUIRE(boop_atomic_file_open((dir + "/x").c_str(), 0, &f, nullptr, 0) == BOOP_OK);
    REQUIRE(boop_atomic_file_write(f, "abc", 3) == BOOP_OK);
    boop_atomic_file_abort(f);
    CHECK(names(dir).empty());
    char why[128] = "";
    f = reinterpret_cast<boop_atomic_file*>(1);
    CHECK(boop_atomic_file_open((dir + "/gone/x").c_str(), 0, &f, why, sizeof why) == BOOP_ERROR_CANNOT_CREATE);
    CHECK(f == nullptr);
    CHECK(std::string(why) == std::strerror(ENOENT));
    CHECK(boop_file_write_atomic((dir + "/gone/x").c_str(), "a", 1, 0, BOOP_DURABILITY_SYNC, why, sizeof why) ==
          BOOP_ERROR_CANNOT_CREATE);
    CHECK(boop_atomic_file_open(nullptr, 0, &f, why, sizeof why) == BOOP_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("atomic file: past ulimit -f the write fails saying so, and nothing is left") {
    const std::string dir = tempDir();
    auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    const std::vector<char> big(10000, 'x');
    char why[128] = "";
    const boop_status s = boop_file_write_atomic((dir + "/big").c_str(), big.data(), big.size(), 0,
                                                 BOOP_DURABILITY_RENAME, why, sizeof why);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previous);
    CHECK(s == BOOP_ERROR_IO);
    CHECK(std::string(why) == "file size limit exceeded (ulimit -f)");
    CHECK(names(dir).empty());
}

TEST_CASE("atomic file: a rename that fails removes the temporary file and keeps the handle for the reason") {
    const std::string dir = tempDir();
    REQUIRE(mkdir((dir + "/taken").c_str(), 0755) == 0);
    REQUIRE(mkdir((dir + "/taken/inside").c_str(), 0755) == 0);  // a non-empty folder cannot be replaced
    boop_atomic_file* f = nullptr;
    REQUIRE(boop_atomic_file_open((dir + "/taken").c_str(), 0, &f, nullptr, 0) == BOOP_OK);
    REQUIRE(boop_atomic_file_write(f, "a", 1) == BOOP_OK);
    CHECK(boop_atomic_file_commit(f, BOOP_DURABILITY_SYNC) == BOOP_ERROR_IO);
    CHECK(std::string(boop_atomic_file_error(f)).size() > 0);
    boop_atomic_file_abort(f);
    CHECK(names(dir) == std::vector<std::string>{"taken"});
}

TEST_CASE("atomic file: a link is written through (it stays a link); KEEP_MODE keeps the target's mode") {
    const std::string dir = tempDir();
    REQUIRE(mkdir((dir + "/real").c_str(), 0755) == 0);
    const std::string target = dir + "/real/song.json";
    REQUIRE(boop_file_write_atomic(target.c_str(), "old", 3, 0, BOOP_DURABILITY_SYNC, nullptr, 0) == BOOP_OK);
    REQUIRE(chmod(target.c_str(), 0640) == 0);
    REQUIRE(symlink("real/song.json", (dir + "/link.json").c_str()) == 0);
    REQUIRE(boop_file_write_atomic((dir + "/link.json").c_str(), "new", 3,
                                   BOOP_ATOMIC_FOLLOW_LINKS | BOOP_ATOMIC_KEEP_MODE, BOOP_DURABILITY_SYNC, nullptr,
                                   0) == BOOP_OK);
    struct stat st;
    REQUIRE(lstat((dir + "/link.json").c_str(), &st) == 0);
    CHECK(S_ISLNK(st.st_mode));
    CHECK(slurp(target) == "new");
    CHECK(modeOf(target) == 0640);
    char out[4096];
    CHECK(boop_file_resolve_links((dir + "/link.json").c_str(), out, sizeof out) == (dir + "/real/song.json").size());
    CHECK(std::string(out) == dir + "/real/song.json");
    CHECK(boop_file_resolve_links((dir + "/link.json").c_str(), out, 4) == 0);  // does not fit
    // A dangling link names its missing target, which the write creates.
    REQUIRE(symlink("real/new.json", (dir + "/dangling.json").c_str()) == 0);
    REQUIRE(boop_file_write_atomic((dir + "/dangling.json").c_str(), "n", 1,
                                   BOOP_ATOMIC_FOLLOW_LINKS | BOOP_ATOMIC_KEEP_MODE, BOOP_DURABILITY_SYNC, nullptr,
                                   0) == BOOP_OK);
    CHECK(slurp(dir + "/real/new.json") == "n");
}

TEST_CASE("atomic file: an unflushed commit replaces a file, a link and refuses a folder as the rename did") {
    // RENAME commits swap names with an existing regular file, then remove the old one.
    const std::string dir = tempDir();
    const std::string path = dir + "/r.wav";
    for (const char* text : {"first, longer", "second"}) {
        REQUIRE(boop_file_write_atomic(path.c_str(), text, std::strlen(text), 0, BOOP_DURABILITY_RENAME, nullptr, 0) ==
                BOOP_OK);
        CHECK(slurp(path) == text);
    }
    CHECK(names(dir) == std::vector<std::string>{"r.wav"});
    // A link not followed is replaced by the file; what it pointed at is left alone.
    REQUIRE(symlink("r.wav", (dir + "/l.wav").c_str()) == 0);
    REQUIRE(boop_file_write_atomic((dir + "/l.wav").c_str(), "l", 1, 0, BOOP_DURABILITY_RENAME, nullptr, 0) == BOOP_OK);
    struct stat st;
    REQUIRE(lstat((dir + "/l.wav").c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK(slurp(dir + "/l.wav") == "l");
    CHECK(slurp(path) == "second");
    REQUIRE(mkdir((dir + "/d").c_str(), 0755) == 0);
    REQUIRE(mkdir((dir + "/d/inside").c_str(), 0755) == 0);
    char why[128] = "";
    CHECK(boop_file_write_atomic((dir + "/d").c_str(), "a", 1, 0, BOOP_DURABILITY_RENAME, why, sizeof why) ==
          BOOP_ERROR_IO);
    CHECK(std::string(why).size() > 0);
    CHECK(names(dir).size() == 3);  // r.wav, l.wav, d: no temporary file
    CHECK(access((dir + "/d/inside").c_str(), F_OK) == 0);
}
