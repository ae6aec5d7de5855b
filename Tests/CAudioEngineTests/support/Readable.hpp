#pragma once
// Whether a descriptor is readable now (poll with no timeout): for the descriptors a backend makes
// readable for a control thread (EndedSignal, IoThread's end).
#include <poll.h>

namespace testfd {

inline bool readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN) != 0;
}

}  // namespace testfd
