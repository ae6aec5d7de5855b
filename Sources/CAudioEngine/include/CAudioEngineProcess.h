/* PixelBoop's C API, the boop tool's files and process clean-up: atomic files (how the tool makes
 * every file), temporary files that every way out removes, stop signals, and the standard
 * descriptors. Part of <pixelboop/CAudioEngine.h>, which includes it at its end (the types it uses
 * are that header's); conventions as there, a thread note on every function. */
#ifndef CAUDIOENGINE_PROCESS_H
#define CAUDIOENGINE_PROCESS_H

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

/* Caps glibc's malloc arenas at `arenas` (mallopt M_ARENA_MAX): each thread's own arena reserves
 * up to 128 MiB of address space, which under `ulimit -v` runs out before memory does, in
 * whichever thread allocates next. Returns 1 when set. Thread safety: at start, before threads. */
int boop_malloc_arenas_limit(int arenas);

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
 * restores the terminal (boop_stop_signals_set_restore), removes the temporary files and
 * _exits 130. Return: 0, or -1 with errno set. */
int boop_stop_signals_install(int wake_fd);
void boop_stop_signals_arm(void);

/* Stop signals received so far, and the first one's number (0: none). Async-signal-safe. */
int boop_stop_signals_count(void);
int boop_stop_signals_first(void);

/* The function that puts the terminal back before a signal ends the process (it must be
 * async-signal-safe: the terminal session's boop_term_restore); NULL: none. Thread-safe. */
void boop_stop_signals_set_restore(void (*restore)(void));

/* ====================================================================================== */
/* Atomic files: the one way the boop tool makes a file                                    */
/* ====================================================================================== */

/* Audio renders and recordings, MIDI files, saved patterns and `.save` copies: the bytes go to a
 * temporary file beside the target (mkstemp, `.boop-XXXXXX`, removed by a stop signal: see
 * boop_temp_create) and are renamed over it on commit. Any failure, and abort, removes the
 * temporary file, so nothing half-written ever appears under the target's name. */

/* How far a commit goes before it returns (docs/DESIGN.md, "Durability"). RENAME: the rename is
 * atomic, the bytes reach the disk when the kernel writes them back (a render can be made again);
 * an existing regular file is replaced by swapping names and removing the old one, so ext4 does not
 * write the new file back at the rename (auto_da_alloc).
 * SYNC: the file and then its folder are flushed first (a saved pattern is the user's work). */
typedef enum { BOOP_DURABILITY_RENAME = 0, BOOP_DURABILITY_SYNC = 1 } boop_durability;

/* Flags: FOLLOW_LINKS replaces the file a symbolic link names (the link stays a link);
 * KEEP_MODE gives the new file the permissions of the one it replaces (0644 less the umask for a
 * new one; without it, 0666 less the umask). */
#define BOOP_ATOMIC_FOLLOW_LINKS 1u
#define BOOP_ATOMIC_KEEP_MODE 2u

typedef struct boop_atomic_file boop_atomic_file;

/* Makes the temporary file for `path`. Return: BOOP_OK; BOOP_ERROR_CANNOT_CREATE with the
 * system's reason copied into `why` (NUL-terminated, cut to `why_size`; may be NULL);
 * BOOP_ERROR_INVALID_ARGUMENT, BOOP_ERROR_OUT_OF_MEMORY. One file is used from one thread at a
 * time. */
boop_status boop_atomic_file_open(const char* path, uint32_t flags, boop_atomic_file** out_file, char* why,
                                  size_t why_size);

/* Appends `count` bytes; writes at `offset` over bytes already written. Return: BOOP_OK,
 * BOOP_ERROR_IO (boop_atomic_file_error says why: "file size limit exceeded (ulimit -f)", "disk
 * full ..."), BOOP_ERROR_INVALID_ARGUMENT. */
boop_status boop_atomic_file_write(boop_atomic_file* file, const void* bytes, size_t count);
boop_status boop_atomic_file_write_at(boop_atomic_file* file, uint64_t offset, const void* bytes, size_t count);

/* Renames the file into place (after flushing it, for SYNC). On BOOP_OK the handle is freed; on
 * failure (BOOP_ERROR_IO) the temporary file is gone and the handle stays so that
 * boop_atomic_file_error can say why: free it with boop_atomic_file_abort. */
boop_status boop_atomic_file_commit(boop_atomic_file* file, boop_durability durability);

/* Removes the temporary file (if any) and frees the handle. NULL is ignored. */
void boop_atomic_file_abort(boop_atomic_file* file);

/* The last failure's reason; "" when none. Valid until the next call on the handle. */
const char* boop_atomic_file_error(const boop_atomic_file* file);

/* The whole of `bytes` as the file `path`: open, write, commit in one call. Return: as
 * boop_atomic_file_open (CANNOT_CREATE) and boop_atomic_file_commit (IO), the reason in `why`. */
boop_status boop_file_write_atomic(const char* path, const void* bytes, size_t count, uint32_t flags,
                                   boop_durability durability, char* why, size_t why_size);

/* The file `path` finally names, symbolic links followed (as BOOP_ATOMIC_FOLLOW_LINKS does), into
 * `out` (NUL-terminated). Return: the length, or 0 when it does not fit in `out_size`. */
size_t boop_file_resolve_links(const char* path, char* out, size_t out_size);

/* A recording (boop listen -o, boop train -o) cannot be made again: its commit should be SYNC.
 * A render's is RENAME, the default. Call before boop_file_writer_commit. */
void boop_file_writer_set_durability(boop_file_writer* writer, boop_durability durability);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAUDIOENGINE_PROCESS_H */
