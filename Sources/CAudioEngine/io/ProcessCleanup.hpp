#pragma once
// Temporary files a signal must not strand, and the stop signals (ProcessCleanup.cpp). The C API
// (CAudioEngineProcess.h) is capi/ProcessApi.cpp; the engine's own files (AtomicFile) call these.
// Each function's contract and thread note are the C API's, in CAudioEngineProcess.h.

namespace boop::process {

int createTemporary(char* template_path);    // boop_temp_create
void forgetTemporary(const char* path);      // boop_temp_forget
void removeAllTemporaries();                 // boop_temp_remove_all (async-signal-safe)
int reserveStandardDescriptors();            // boop_standard_descriptors_reserve
int installStopSignals(int wake_fd);         // boop_stop_signals_install
void armStopSignals();                       // boop_stop_signals_arm
int stopSignalCount();                       // boop_stop_signals_count
int firstStopSignal();                       // boop_stop_signals_first
void setTerminalRestore(void (*restore)());  // boop_stop_signals_set_restore

}  // namespace boop::process
