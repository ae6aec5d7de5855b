/* PixelBoop's C API, process clean-up for the boop tool: temporary files that every way out
 * removes, stop signals, and the standard descriptors. Part of <pixelboop/CAudioEngine.h>, which
 * includes it; conventions as there, a thread note on every function. */
#ifndef CAUDIOENGINE_PROCESS_H
#define CAUDIOENGINE_PROCESS_H

#include <termios.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens /dev/null on each of the descriptors 0, 1 and 2 that is closed, so that no file the
 * process opens later takes a standard descriptor's number: with stdout closed, a WAV file or the
 * training history could otherwise be opened as descriptor 1 and receive what was meant for
 * stdout. Return: the descriptors that were closed, as bits (1 stdin, 2 stdout, 4 stderr); every
 * later call returns the first call's answer. Thread safety: the first call before any thread or
 * file is opened (boop makes it from .preinit_array); later calls from any thread. */
int boop_standard_descriptors_reserve(void);

/* Creates and opens a temporary file from `template_path` (a path ending in XXXXXX, rewritten in
 * place, as mkstemp) and remembers its name, so that a stop signal removes it whatever the
 * process is doing. Return: the descriptor, or -1 with errno set. Thread-safe. */
int boop_temp_create(char* template_path);

/* Forgets a temporary file made by boop_temp_create, once it was renamed into place or removed.
 * Thread-safe. */
void boop_temp_forget(const char* path);

/* Removes every remembered temporary file. Async-signal-safe. */
void boop_temp_remove_all(void);

/* Installs handlers for the stop signals, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
 * SIGALRM, SIGVTALRM and SIGXCPU (sigaction, no thread; every signal whose default ends the
 * process, but SIGPIPE and SIGXFSZ, which boop ignores, and SIGKILL). Until
 * boop_stop_signals_arm, a signal removes the temporary files and ends the process as SIGTERM
 * would (SIGQUIT too: no core dump, no crash report). Once armed, the first signal is counted
 * and one byte is written to `wake_fd` (when >= 0; it should be non-blocking) and the second
 * restores the terminal (boop_stop_signals_set_terminal), removes the temporary files and
 * _exits 130. Return: 0, or -1 with errno set. */
int boop_stop_signals_install(int wake_fd);
void boop_stop_signals_arm(void);

/* Stop signals received so far, and the first one's number (0: none). Async-signal-safe. */
int boop_stop_signals_count(void);
int boop_stop_signals_first(void);

/* The terminal settings to put back on STDIN before a signal ends the process; NULL: none. */
void boop_stop_signals_set_terminal(const struct termios* saved);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAUDIOENGINE_PROCESS_H */
