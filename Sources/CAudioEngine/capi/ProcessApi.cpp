// The C API of the process helpers (CAudioEngineProcess.h): each a call into io/ProcessCleanup.
#include <malloc.h>

#include "include/CAudioEngine.h"
#include "io/ProcessCleanup.hpp"

extern "C" {

int boop_temp_create(char* template_path) { return boop::process::createTemporary(template_path); }
void boop_temp_forget(const char* path) { boop::process::forgetTemporary(path); }
int boop_malloc_arenas_limit(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
void boop_temp_remove_all(void) { boop::process::removeAllTemporaries(); }
int boop_standard_descriptors_reserve(void) { return boop::process::reserveStandardDescriptors(); }
int boop_stop_signals_install(int wake_fd) { return boop::process::installStopSignals(wake_fd); }
void boop_stop_signals_arm(void) { boop::process::armStopSignals(); }
int boop_stop_signals_count(void) { return boop::process::stopSignalCount(); }
int boop_stop_signals_first(void) { return boop::process::firstStopSignal(); }
void boop_stop_signals_set_restore(void (*restore)(void)) { boop::process::setTerminalRestore(restore); }

}  // extern "C"
