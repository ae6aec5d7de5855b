#pragma once
// Scala's two text formats (www.huygens-fokker.org/scala/scl_format.html, help.htm#mappings):
// a scale (.scl) and a keyboard mapping (.kbm). Written here rather than taken from a library:
// the formats are a page each, and the libraries that read them are GPL (Scala itself) or bring
// a synth's whole tuning framework. Parsing is strict: every number is checked for its form and
// range, and a failure names the line and what was expected.
#include <string>
#include <string_view>
#include <vector>

namespace boop {
namespace scala {

struct Scale {
    std::string description;
    // Degrees 1 ... N above 1/1 in cents; the last is the period (degree 0 is 1/1, implicit).
    std::vector<double> cents;
};

struct Mapping {
    int size = 0;  // 0: consecutive keys on consecutive degrees
    int firstKey = 0;
    int lastKey = 127;
    int middleKey = 60;
    int referenceKey = 60;
    double referenceHz = 261.62556530059862;  // 12-tone equal C4 under A4 = 440 Hz
    int octaveDegree = 0;                     // 0: the scale's period
    std::vector<int> degrees;                 // one per pattern key; -1 unmapped ("x")
};

// Each returns false with `why` set ("line 3: expected …") on malformed text.
bool parseScale(std::string_view text, Scale& scale, std::string& why);
bool parseMapping(std::string_view text, Mapping& mapping, std::string& why);

}  // namespace scala
}  // namespace boop
