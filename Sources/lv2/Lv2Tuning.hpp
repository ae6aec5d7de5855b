#pragma once
// boop.lv2's tuning: a Scala scale (.scl) and optional keyboard mapping (.kbm), set by the host as
// two path parameters (patch:Set of boop#scl and boop#kbm on the control port, which run() hands
// to the LV2 worker: reading and parsing a file never happens in run()), kept in the plugin's
// state as paths the host maps (state:mapPath). The worker answers with the 128 key frequencies,
// which run() context copies into the synth: the next notes play them.
#include <cstdint>
#include <mutex>
#include <string>

namespace boop::lv2 {

class Lv2Tuning {
  public:
    static constexpr int kKeys = 128;
    // The longest path a request carries (PATH_MAX); a longer one is ignored.
    static constexpr uint32_t kPathMax = 4096;
    enum Which : uint32_t { kScale = 0, kMapping = 1 };
    // What run() hands the worker: which file, then its path (NUL-terminated; "" clears it).
    struct Request {
        uint32_t which;
        char path[kPathMax];
    };

    // 12-tone equal temperament, A4 = 440 Hz: the synth's own default, and the tuning without a scale.
    static void equalTemperament(double (&hz)[kKeys]) noexcept;

    // Worker thread: the tuning of the current files with the request's one changed. True with
    // `hz` filled (and the paths kept) when the files make a tuning; false with `why` ("file:
    // what") when they do not, the paths unchanged. A mapping without a scale is kept for the
    // next scale and changes nothing (true, `hz` the equal temperament).
    bool request(const void* data, uint32_t size, double (&hz)[kKeys], std::string& why);
    // State restore: both files at once ("" for none), as request.
    bool load(const std::string& scale, const std::string& mapping, double (&hz)[kKeys], std::string& why);
    // State save (any thread): the files of the tuning last made.
    void paths(std::string& scale, std::string& mapping) const;

  private:
    mutable std::mutex lock_;  // between the worker and state save, neither of them run()
    std::string scale_, mapping_;
};

}  // namespace boop::lv2
