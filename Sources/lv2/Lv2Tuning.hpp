#pragma once
// boop.lv2's tuning: a Scala scale (.scl) and optional keyboard mapping (.kbm), set by the host as
// two path parameters (patch:Set of boop#scl and boop#kbm on the control port, which run() hands
// to the LV2 worker: reading and parsing a file never happens in run()), kept in the plugin's
// state as paths the host maps (state:mapPath). The worker answers with the 128 key frequencies
// and the files in force (an Answer), which run() context copies into the synth, the next notes
// playing them, and reports on the notify port.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "rt/Realtime.hpp"

namespace boop::lv2 {

class Lv2Tuning {
  public:
    static constexpr int kKeys = 128;
    // The longest path a request carries (PATH_MAX); a longer one is ignored.
    static constexpr uint32_t kPathMax = 4096;
    enum Which : uint32_t { kScale = 0, kMapping = 1 };
    // What run() hands the worker: which file, the patch:sequenceNumber of the patch:Set (0: none,
    // as the patch extension numbers requests from 1), then its path (NUL-terminated; "" clears it).
    struct Request {
        uint32_t which;
        int32_t sequence;
        char path[kPathMax];
    };
    static constexpr uint32_t kRequestHeader = sizeof(uint32_t) + sizeof(int32_t);
    // What the worker answers: whether the files made a tuning, the request's sequence number,
    // the key frequencies (12-TET when they did not: unused), then the scale's and the mapping's
    // paths in force afterwards, each NUL-terminated (the old ones when the request failed).
    struct AnswerHead {
        uint32_t ok;
        int32_t sequence;
        uint32_t scaleLength, mappingLength;
    };
    // An Answer as run() reads it: the paths point into the answer's bytes.
    struct Answer {
        bool ok = false;
        int32_t sequence = 0;
        const char* scale = nullptr;
        const char* mapping = nullptr;
        uint32_t scaleLength = 0, mappingLength = 0;
    };
    // Worker thread: an answer's bytes.
    static std::vector<uint8_t> answer(bool ok, int32_t sequence, const double (&hz)[kKeys], const std::string& scale,
                                       const std::string& mapping);
    // run() context: the answer read back (`hz` filled), false when its bytes are not one.
    static bool read(const void* data, uint32_t size, double (&hz)[kKeys], Answer& answer) BOOP_RT;

    // 12-tone equal temperament, A4 = 440 Hz: the synth's own default, and the tuning without a scale.
    static void equalTemperament(double (&hz)[kKeys]) noexcept;

    // Worker thread: the tuning of the current files with the request's one changed. True with
    // `hz` filled (and the paths kept) when the files make a tuning; false with `why` ("file:
    // what") when they do not, the paths unchanged. A mapping without a scale is kept for the
    // next scale and changes nothing (true, `hz` the equal temperament).
    // `sequence` is the request's.
    bool request(const void* data, uint32_t size, double (&hz)[kKeys], int32_t& sequence, std::string& why);
    // State restore: both files at once ("" for none), as request.
    bool load(const std::string& scale, const std::string& mapping, double (&hz)[kKeys], std::string& why);
    // State save (any thread): the files of the tuning last made.
    void paths(std::string& scale, std::string& mapping) const;

  private:
    mutable std::mutex lock_;  // between the worker and state save, neither of them run()
    std::string scale_, mapping_;
};

}  // namespace boop::lv2
