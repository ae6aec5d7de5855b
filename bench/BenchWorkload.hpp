#pragma once
// The benchmark workload: the melody voice (sine -> linear envelope -> 2 kHz lowpass)
// at 48 kHz, every voice busy, a new note every 125 ms (the oldest voice gives way).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace bench {

constexpr double kRate = 48000.0;
constexpr int kBlock = 256;
constexpr double kNoteEverySeconds = 0.125;

inline double pitchHz(int note) {  // a wandering two-octave melody so frequencies vary
    static const int steps[] = {0, 4, 7, 12, 7, 4, 2, 9, 5, 11, 14, 16};
    return 220.0 * std::pow(2.0, steps[note % 12] / 12.0 + (note / 12 % 2));
}

// Median wall time of `runs` calls of `work`, in seconds.
inline double medianSeconds(int runs, const std::function<void()>& work) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto a = std::chrono::steady_clock::now();
        work();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace bench
