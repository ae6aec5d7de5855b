// Sequencer port matching (see AlsaSeqMatch.hpp).
#include "backend/alsa/AlsaSeqMatch.hpp"

#include <algorithm>
#include <cctype>

namespace boop {

namespace {

bool allDigits(const std::string& s) {
    return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool contains(const std::string& text, const std::string& part) {
    return lower(text).find(lower(part)) != std::string::npos;
}

}  // namespace

int matchSeqPort(const std::vector<SeqPort>& ports, const std::string& spec) {
    if (spec.empty()) return -1;
    const std::size_t colon = spec.rfind(':');
    const std::string left = colon == std::string::npos ? spec : spec.substr(0, colon);
    const std::string right = colon == std::string::npos ? "" : spec.substr(colon + 1);
    const int count = static_cast<int>(ports.size());
    if (colon == std::string::npos && allDigits(spec)) {
        const int client = std::stoi(spec);
        for (int i = 0; i < count; ++i)
            if (ports[std::size_t(i)].client == client) return i;
        return -1;
    }
    if (colon != std::string::npos && allDigits(right) && !left.empty()) {
        const int port = std::stoi(right);
        const bool byNumber = allDigits(left);
        for (int i = 0; i < count; ++i) {
            const SeqPort& p = ports[std::size_t(i)];
            if (p.port != port) continue;
            if (byNumber ? p.client == std::stoi(left) : contains(p.clientName, left)) return i;
        }
        if (byNumber) return -1;  // numbers name one port exactly; no guessing from the text
    }
    for (int i = 0; i < count; ++i) {
        const SeqPort& p = ports[std::size_t(i)];
        if (contains(p.clientName + ":" + p.portName, spec)) return i;
    }
    return -1;
}

}  // namespace boop
