// The one terminal session of the boop tool: raw or key mode, the alternate screen, mouse
// reporting, the cursor, job control and the signals that concern the terminal.
//
// Its state lives here, in C, because the signal handlers read and write it: a handler may only
// touch lock-free atomics and call async-signal-safe functions, which Swift cannot promise for
// its own globals. PixelBoopCore's TerminalSession is the Swift face of it.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Single keys while something plays (play, ambient, train): no line editing, no echo; Ctrl-C and
/// Ctrl-Z still raise their signals, and a Ctrl-Z stops the process from the signal handler after
/// the terminal was put back (SIGCONT enters key mode again).
#define BOOP_TERM_KEYS 0
/// The editor: raw input (Ctrl-C and Ctrl-Z arrive as bytes), the alternate screen, SGR mouse
/// reporting. SIGTSTP from outside becomes a byte on the event descriptor and the editor suspends
/// between two frames (boop_term_suspend).
#define BOOP_TERM_FULLSCREEN 1

/// Enters `mode` on stdin's terminal, with `screen_fd` (1 or 2) as the screen: 0 when done, -1
/// when stdin (or, full screen, the screen) is not a terminal. `hide_cursor` hides it in key mode
/// (full screen always does). Only one session at a time; a second start fails.
int boop_term_start(int mode, int screen_fd, int hide_cursor);

/// Puts the terminal back as it was found (idempotent; async-signal-safe, also run at exit and
/// from the crash handlers). The leave sequence waits at most about a second for a terminal that
/// stopped reading.
void boop_term_restore(void);

/// 1 while the session's mode is on.
int boop_term_active(void);

/// 0 when SIGTSTP was ignored at start (a shell without job control): nothing may stop.
int boop_term_can_suspend(void);

/// Readable when a terminal signal came: each is one byte, its number (SIGWINCH, SIGCONT; full
/// screen also SIGTSTP, SIGINT, SIGTERM, SIGHUP and SIGQUIT). -1 before a start.
int boop_term_event_fd(void);

/// The screen, opened anew (its own open file description) and non-blocking, so a terminal that
/// stops reading never blocks a write and stdout's own flags stay as the shell left them. When
/// the terminal may not be opened again (another user's: after su or setpriv), a duplicate of the
/// inherited descriptor, left blocking (ScreenOutput then writes it from a thread of its own). -1
/// before a start.
int boop_term_screen_fd(void);

/// Counts the times the terminal came back after a stop (key mode's SIGCONT, or resume): a view
/// drawn in lines starts a new block when it changed.
unsigned boop_term_resume_count(void);

/// Full screen: restores the terminal and stops the process group as SIGTSTP would; returns once
/// continued, 1 when the process was stopped, 0 when nothing stopped it (an orphaned group).
/// Call boop_term_resume afterwards either way.
int boop_term_suspend(void);

/// After a suspend or a SIGCONT: the mode and its screen settings again.
void boop_term_resume(void);

/// Columns and rows of the screen; 80 x 24 when it cannot say.
void boop_term_size(int* columns, int* rows);

/// Columns of the terminal on `fd` (a status line on stderr, say); 0 when it is not a terminal or
/// does not say. Read each time, so it follows a resized window without a SIGWINCH handler.
int boop_term_columns(int fd);

#ifdef __cplusplus
}
#endif
