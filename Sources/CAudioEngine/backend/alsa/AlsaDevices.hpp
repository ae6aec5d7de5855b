#pragma once
// The PCMs ALSA knows (snd_device_name_hint), for `boop devices`.
#include <vector>

#include "backend/Backend.hpp"
#include "include/CAudioEngine.h"

namespace boop {

// "default" first (listed even when no configuration describes it), names merged when a
// configuration lists one twice, descriptions on one line. Allocates; may throw std::bad_alloc.
boop_status listAlsaPcms(std::vector<DeviceEntry>& out);

}  // namespace boop
