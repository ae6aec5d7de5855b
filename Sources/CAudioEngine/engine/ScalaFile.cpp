#include "engine/ScalaFile.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "include/CAudioEngine.h"

namespace boop {
namespace scala {
namespace {

// Walks the text line by line, leaving out Scala's comment lines (those that start with '!').
class Lines {
  public:
    explicit Lines(std::string_view text) : text_(text) {}

    // The next line that is not a comment (without its line ending); false at the end.
    bool next(std::string_view& line) {
        while (at_ < text_.size()) {
            size_t end = text_.find('\n', at_);
            if (end == std::string_view::npos) end = text_.size();
            std::string_view raw = text_.substr(at_, end - at_);
            at_ = end + 1;
            ++number_;
            if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
            if (!raw.empty() && raw.front() == '!') continue;
            line = raw;
            return true;
        }
        return false;
    }
    int number() const { return number_; }

  private:
    std::string_view text_;
    size_t at_ = 0;
    int number_ = 0;
};

// A line's first field: Scala ignores whatever follows a value after white space.
std::string_view firstField(std::string_view line) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return {};
    size_t end = line.find_first_of(" \t", start);
    return line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// The field as a message shows it: printable ASCII kept, every other byte as \xNN, at most 40.
std::string shown(std::string_view field) {
    static const char digits[] = "0123456789abcdef";
    std::string out = "\"";
    for (size_t i = 0; i < field.size() && i < 40; ++i) {
        unsigned char c = static_cast<unsigned char>(field[i]);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out + (field.size() > 40 ? "…\"" : "\"");
}

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// A whole number of at most 9 digits (every count and key Scala files hold fits).
bool wholeNumber(std::string_view field, long& value) {
    if (!allDigits(field) || field.size() > 9) return false;
    value = std::strtol(std::string(field).c_str(), nullptr, 10);
    return true;
}

// [+-]digits[.digits]: the decimal forms Scala writes (no exponent, no hexadecimal, no inf).
bool decimalNumber(std::string_view field, bool needsPoint, double& value) {
    std::string_view body = field;
    if (!body.empty() && (body.front() == '-' || body.front() == '+')) body.remove_prefix(1);
    size_t point = body.find('.');
    if (needsPoint && point == std::string_view::npos) return false;
    std::string_view whole = body.substr(0, point);
    std::string_view fraction = point == std::string_view::npos ? std::string_view{} : body.substr(point + 1);
    if (whole.empty() && fraction.empty()) return false;
    if ((!whole.empty() && !allDigits(whole)) || (!fraction.empty() && !allDigits(fraction))) return false;
    errno = 0;
    value = std::strtod(std::string(field).c_str(), nullptr);
    return errno == 0 && std::isfinite(value);
}

// A pitch line's value in cents: "701.955" (cents: a period), "3/2" or "2" (a ratio).
bool pitchCents(std::string_view field, double& cents) {
    if (field.find('.') != std::string_view::npos) return decimalNumber(field, true, cents);
    size_t slash = field.find('/');
    std::string_view top = field.substr(0, slash);
    std::string_view bottom = slash == std::string_view::npos ? std::string_view("1") : field.substr(slash + 1);
    if (!allDigits(top) || !allDigits(bottom)) return false;
    double numerator = std::strtod(std::string(top).c_str(), nullptr);
    double denominator = std::strtod(std::string(bottom).c_str(), nullptr);
    if (!(numerator > 0) || !(denominator > 0) || !std::isfinite(numerator) || !std::isfinite(denominator))
        return false;
    cents = 1200.0 * std::log2(numerator / denominator);
    return std::isfinite(cents);
}

std::string at(int line) { return "line " + std::to_string(line < 1 ? 1 : line) + ": "; }

bool failAt(std::string& why, int line, const std::string& what) {
    why = at(line) + what;
    return false;
}

bool mappingNumber(Lines& lines, const char* what, long low, long high, long& value, std::string& why) {
    std::string_view line;
    if (!lines.next(line))
        return failAt(why, lines.number(), std::string("expected ") + what + ", found the end of the file");
    std::string_view field = firstField(line);
    if (!wholeNumber(field, value) || value < low || value > high)
        return failAt(why, lines.number(),
                      std::string("expected ") + what + " (" + std::to_string(low) + " to " + std::to_string(high) +
                          "), found " + shown(field));
    return true;
}

}  // namespace

bool parseScale(std::string_view text, Scale& scale, std::string& why) {
    Lines lines(text);
    std::string_view line;
    if (!lines.next(line)) return failAt(why, lines.number(), "expected a description line, found the end of the file");
    scale.description.assign(line.data(), line.size());
    if (!lines.next(line))
        return failAt(why, lines.number(), "expected the number of notes, found the end of the file");
    long count = 0;
    std::string_view field = firstField(line);
    if (!wholeNumber(field, count) || count < 1 || count > BOOP_TUNING_DEGREES_MAX)
        return failAt(why, lines.number(),
                      "expected the number of notes (1 to " + std::to_string(BOOP_TUNING_DEGREES_MAX) + "), found " +
                          shown(field));
    scale.cents.clear();
    scale.cents.reserve(static_cast<size_t>(count));
    for (long i = 0; i < count; ++i) {
        if (!lines.next(line))
            return failAt(why, lines.number(),
                          "expected " + std::to_string(count) + " pitches, found " + std::to_string(i) +
                              " before the end of the file");
        double cents = 0;
        field = firstField(line);
        if (!pitchCents(field, cents))
            return failAt(why, lines.number(),
                          "expected a pitch (cents with a period, as 701.955, or a positive ratio, as 3/2 or "
                          "2), found " +
                              shown(field));
        scale.cents.push_back(cents);
    }
    return true;
}

bool parseMapping(std::string_view text, Mapping& mapping, std::string& why) {
    Lines lines(text);
    long size = 0, first = 0, last = 0, middle = 0, reference = 0, octave = 0;
    if (!mappingNumber(lines, "the map size", 0, BOOP_TUNING_DEGREES_MAX, size, why) ||
        !mappingNumber(lines, "the first key to retune", 0, 127, first, why) ||
        !mappingNumber(lines, "the last key to retune", first, 127, last, why) ||
        !mappingNumber(lines, "the middle key (degree 0)", 0, 127, middle, why) ||
        !mappingNumber(lines, "the reference key", 0, 127, reference, why))
        return false;
    std::string_view line;
    if (!lines.next(line))
        return failAt(why, lines.number(), "expected the reference frequency in Hz, found the end of the file");
    double hz = 0;
    std::string_view field = firstField(line);
    if (!decimalNumber(field, false, hz) || !(hz >= 0.01 && hz <= 1e6))
        return failAt(why, lines.number(),
                      "expected the reference frequency in Hz (0.01 to 1000000), found " + shown(field));
    if (!mappingNumber(lines, "the formal octave's degree", 0, 1000000, octave, why)) return false;
    mapping = Mapping{};
    mapping.size = static_cast<int>(size);
    mapping.firstKey = static_cast<int>(first);
    mapping.lastKey = static_cast<int>(last);
    mapping.middleKey = static_cast<int>(middle);
    mapping.referenceKey = static_cast<int>(reference);
    mapping.referenceHz = hz;
    mapping.octaveDegree = static_cast<int>(octave);
    mapping.degrees.assign(static_cast<size_t>(size), -1);
    for (long i = 0; lines.next(line);) {
        field = firstField(line);
        if (field.empty()) continue;  // blank lines, as editors leave them at the end
        if (i == size)
            return failAt(
                why, lines.number(),
                "expected at most " + std::to_string(size) + " mapping entries (the map size), found " + shown(field));
        long degree = -1;
        if (field != "x" && field != "X" && (!wholeNumber(field, degree) || degree > 1000000))
            return failAt(why, lines.number(),
                          "expected a scale degree (a whole number) or x (unmapped), found " + shown(field));
        mapping.degrees[static_cast<size_t>(i++)] = static_cast<int>(degree);
    }
    return true;
}

}  // namespace scala
}  // namespace boop
