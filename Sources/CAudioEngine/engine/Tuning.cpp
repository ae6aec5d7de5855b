#include "engine/Tuning.hpp"

#include <cmath>
#include <optional>

namespace boop {
namespace {

long floorDivide(long a, long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

// Cents of scale degree `degree` above degree 0: whole periods plus the degree within one.
double degreeCents(const scala::Scale& scale, long degree) {
    long count = static_cast<long>(scale.cents.size());
    long periods = floorDivide(degree, count);
    long within = degree - periods * count;
    return static_cast<double>(periods) * scale.cents.back() + (within == 0 ? 0.0 : scale.cents[within - 1]);
}

// The degree a key plays (the range to retune aside): its place in the mapping's pattern, plus
// one formal octave per pattern it lies above the middle key.
std::optional<long> keyDegree(const scala::Mapping& mapping, long octave, int key) {
    long offset = key - mapping.middleKey;
    if (mapping.size == 0) return offset;
    long repeats = floorDivide(offset, mapping.size);
    long place = offset - repeats * mapping.size;
    int degree = mapping.degrees[static_cast<size_t>(place)];
    if (degree < 0) return std::nullopt;
    return degree + repeats * octave;
}

}  // namespace

bool Tuning::build(const scala::Scale& scale, const scala::Mapping& mapping, std::string& why) {
    long octave = mapping.octaveDegree == 0 ? static_cast<long>(scale.cents.size()) : mapping.octaveDegree;
    std::optional<long> reference = keyDegree(mapping, octave, mapping.referenceKey);
    if (!reference) {
        why = "mapping, the reference key " + std::to_string(mapping.referenceKey) +
              " is unmapped (an x in the mapping): expected a mapped key to tune";
        return false;
    }
    double referenceCents = degreeCents(scale, *reference);
    for (int key = 0; key < kKeys; ++key) {
        hz_[key] = 0.0;
        if (key < mapping.firstKey || key > mapping.lastKey) continue;
        std::optional<long> degree = keyDegree(mapping, octave, key);
        if (!degree) continue;
        double hz = mapping.referenceHz * std::exp2((degreeCents(scale, *degree) - referenceCents) / 1200.0);
        // A key the scale carries out of every sound's reach stays silent, as an unmapped one.
        if (std::isfinite(hz) && hz >= 0.01 && hz <= 1e6) hz_[key] = hz;
    }
    description_ = scale.description;
    degrees_ = static_cast<unsigned>(scale.cents.size());
    return true;
}

}  // namespace boop
