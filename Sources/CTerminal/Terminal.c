// The terminal session (CTerminal.h). Everything a signal handler reads or writes is a lock-free
// atomic or the saved termios, which is written only while the session is off (`active` 0) and
// read only while it is on; every call made from a handler is async-signal-safe (POSIX.1-2017
// 2.4.3): write, poll, tcgetattr, tcsetattr, tcflush, sigaction, sigprocmask, raise, kill.
#define _GNU_SOURCE
#include "CTerminal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static struct termios saved;
static atomic_int active = 0;
static atomic_int started = 0;
static atomic_int sessionMode = BOOP_TERM_KEYS;
static atomic_int cursorHidden = 0;
static atomic_int canSuspend = 1;
static atomic_int eventRead = -1;
static atomic_int eventWrite = -1;
static atomic_int screenFd = -1;
// 1 when screenFd is a duplicate of the inherited descriptor (blocking, shared with the shell).
static atomic_int screenShared = 0;
static atomic_int continued = 0;
static atomic_uint resumeCount = 0;

// Modes turned on in order; the resets come in reverse. Bracketed paste (2004) makes a paste one
// framed burst the decoder drops the frame of, never ESC sequences typed as keys.
static const char kFullEnter[] = "\x1b[?1049h\x1b[?25l\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?7l\x1b[2J";
static const char kFullLeave[] = "\x1b[0m\x1b[?7h\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?25h\x1b[?1049l";
static const char kHide[] = "\x1b[?25l";
static const char kShow[] = "\x1b[?25h";

// Writes all of `text` to the screen, waiting at most ~1 s in all for a terminal that does not
// read: a stopped reader must never hold an exit. The screen descriptor is non-blocking, or (a
// terminal this process may not open again) the inherited, blocking one: then each write waits
// for POLLOUT first and is short (these sequences are), so it fits in the room POLLOUT promises;
// POLLOUT is also false while another thread's write holds the terminal.
static void writeScreen(const char* text) {
    const int fd = atomic_load(&screenFd);
    if (fd < 0) return;
    const int shared = atomic_load(&screenShared);
    size_t left = strlen(text);
    for (int waits = 0; left > 0 && waits < 10;) {
        if (shared) {
            struct pollfd p = {fd, POLLOUT, 0};
            const int ready = poll(&p, 1, 100);
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) {
                ++waits;
                continue;
            }
            if (!(p.revents & POLLOUT)) return;  // hung up
        }
        const ssize_t n = write(fd, text, left);
        if (n > 0) {
            text += n;
            left -= (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            struct pollfd p = {fd, POLLOUT, 0};
            poll(&p, 1, 100);
            ++waits;
        } else {
            return;
        }
    }
}

static void sendEvent(int sig) {
    const int fd = atomic_load(&eventWrite);
    unsigned char byte = (unsigned char)sig;
    if (fd >= 0) (void)!write(fd, &byte, 1);
}

static struct termios modeSettings(const struct termios* original) {
    struct termios raw = *original;
    if (atomic_load(&sessionMode) == BOOP_TERM_FULLSCREEN) {
        // No line editing, echo or key signals, no flow control, CR not turned into NL.
        raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
        raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
        raw.c_cflag |= CS8;
    } else {
        // Single keys; ISIG stays, so Ctrl-C and Ctrl-Z raise their signals.
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    }
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    return raw;
}

static void enterMode(void) {
    struct termios raw = modeSettings(&saved);
    // Full screen drops what was typed before (it would arrive as edits); key mode keeps it, so
    // keys typed ahead (an answer to the first trial) still count.
    const int full = atomic_load(&sessionMode) == BOOP_TERM_FULLSCREEN;
    if (full) tcflush(STDIN_FILENO, TCIFLUSH);
    while (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0 && errno == EINTR) {}
    atomic_store(&active, 1);
    if (full) {
        writeScreen(kFullEnter);
    } else {
        if (atomic_load(&cursorHidden)) writeScreen(kHide);
    }
    atomic_fetch_add(&resumeCount, 1);
}

void boop_term_restore(void) {
    int on = 1;
    if (!atomic_compare_exchange_strong(&active, &on, 0)) return;
    const int full = atomic_load(&sessionMode) == BOOP_TERM_FULLSCREEN;
    if (full) {
        writeScreen(kFullLeave);
    } else {
        if (atomic_load(&cursorHidden)) writeScreen(kShow);
    }
    // TCSANOW, not TCSAFLUSH: draining output would wait for ever on a terminal that stopped
    // reading. Raw input left unread (mouse reports) must not reach the shell.
    if (full) tcflush(STDIN_FILENO, TCIFLUSH);
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
}

static void handle(int sig, void (*handler)(int), int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = flags;
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, NULL);
}

static void unblock(int sig) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void onEvent(int sig);
static void onKeyStop(int sig);

static void installStopHandler(void) {
    if (!atomic_load(&canSuspend)) return;
    handle(SIGTSTP, atomic_load(&sessionMode) == BOOP_TERM_FULLSCREEN ? onEvent : onKeyStop, SA_RESTART);
}

static void onEvent(int sig) {
    const int savedErrno = errno;
    if (sig == SIGCONT) {
        atomic_store(&continued, 1);
        // Key mode after a stop that was not ours (SIGSTOP): the shell may have put its own
        // settings back. (After our own stop `active` is 0 here; onKeyStop enters again.)
        if (atomic_load(&sessionMode) == BOOP_TERM_KEYS && atomic_load(&active)) enterMode();
    }
    sendEvent(sig);
    errno = savedErrno;
}

// Key mode's SIGTSTP (Ctrl-Z): the terminal as found, then the stop SIGTSTP would have been; once
// continued, key mode again with the settings found then (a `stty` typed while stopped is kept).
static void onKeyStop(int sig) {
    const int savedErrno = errno;
    const int wasActive = atomic_load(&active);
    boop_term_restore();
    signal(sig, SIG_DFL);
    unblock(sig);
    raise(sig);
    installStopHandler();
    if (wasActive && tcgetattr(STDIN_FILENO, &saved) == 0) enterMode();
    sendEvent(SIGCONT);
    errno = savedErrno;
}

static void onCrash(int sig) {
    boop_term_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void atExit(void) { boop_term_restore(); }

static int ignored(int sig) {
    struct sigaction old;
    sigaction(sig, NULL, &old);
    return old.sa_handler == SIG_IGN;
}

// The screen: its own open file description when the terminal can be opened again, so
// O_NONBLOCK never reaches stdout's, which the shell and any other process on the terminal share;
// else (a terminal of another user, after su or setpriv: the open is refused, as it is for
// vim or less, which write to the descriptor they inherited) a duplicate of `fd` itself, left
// blocking (`*shared` 1): its writes wait for POLLOUT, or go through ScreenOutput's writer thread.
static int openScreen(int fd, int* shared) {
    *shared = 0;
    if (isatty(fd) != 1) return -1;
    char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int own = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (own < 0) {
        const char* name = ttyname(fd);
        if (name) own = open(name, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    }
    if (own < 0) {
        own = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        *shared = own >= 0 && (fcntl(own, F_GETFL) & O_NONBLOCK) == 0;
    }
    return own;
}

int boop_term_start(int mode, int screen_fd, int hide_cursor) {
    if (atomic_load(&started) || isatty(STDIN_FILENO) != 1) return -1;
    int shared = 0;
    const int screen = openScreen(screen_fd, &shared);
    if (mode == BOOP_TERM_FULLSCREEN && screen < 0) return -1;
    if (tcgetattr(STDIN_FILENO, &saved) != 0) {
        if (screen >= 0) close(screen);
        return -1;
    }
    int ends[2];
    if (pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0) {
        if (screen >= 0) close(screen);
        return -1;
    }
    atomic_store(&started, 1);
    atomic_store(&eventRead, ends[0]);
    atomic_store(&eventWrite, ends[1]);
    atomic_store(&screenFd, screen);
    atomic_store(&screenShared, shared);
    atomic_store(&sessionMode, mode);
    atomic_store(&cursorHidden, mode == BOOP_TERM_FULLSCREEN || (hide_cursor && screen >= 0));
    // A shell without job control ignores SIGTSTP for us: then nothing may stop.
    atomic_store(&canSuspend, !ignored(SIGTSTP));
    handle(SIGWINCH, onEvent, SA_RESTART);
    handle(SIGCONT, onEvent, SA_RESTART);
    if (mode == BOOP_TERM_FULLSCREEN) {
        // The editor handles these itself, between two frames (the engine's stop handlers are
        // for the commands that play).
        const int loopSignals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};
        for (size_t i = 0; i < sizeof loopSignals / sizeof *loopSignals; ++i)
            handle(loopSignals[i], onEvent, SA_RESTART);
    }
    installStopHandler();
    // Crashes (a Swift runtime trap is SIGILL or SIGTRAP): the terminal back, then the signal's
    // own action.
    const int crashes[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};
    for (size_t i = 0; i < sizeof crashes / sizeof *crashes; ++i) handle(crashes[i], onCrash, (int)SA_RESETHAND);
    atexit(atExit);
    enterMode();
    atomic_store(&resumeCount, 0);
    return 0;
}

int boop_term_active(void) { return atomic_load(&active); }

int boop_term_can_suspend(void) { return atomic_load(&canSuspend); }

int boop_term_event_fd(void) { return atomic_load(&eventRead); }

int boop_term_screen_fd(void) { return atomic_load(&screenFd); }

unsigned boop_term_resume_count(void) { return atomic_load(&resumeCount); }

int boop_term_suspend(void) {
    if (!atomic_load(&canSuspend)) return 0;
    boop_term_restore();
    atomic_store(&continued, 0);
    signal(SIGTSTP, SIG_DFL);
    unblock(SIGTSTP);
    // The whole process group, as the key would have stopped it in line mode.
    kill(0, SIGTSTP);
    // Continued: the SIGCONT handler may run on another thread a moment after this one goes on;
    // an orphaned group never stopped and sees no SIGCONT.
    for (int i = 0; i < 100 && !atomic_load(&continued); ++i) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    installStopHandler();
    return atomic_load(&continued);
}

void boop_term_resume(void) {
    // Restored before (our own suspend): the settings found now are the ones to put back later.
    // Still on (a SIGSTOP from outside): the shell may have reset the modes, so all are set again.
    if (!atomic_load(&active) && tcgetattr(STDIN_FILENO, &saved) != 0) return;
    enterMode();
}

int boop_term_columns(int fd) {
    struct winsize ws;
    return ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

void boop_term_size(int* columns, int* rows) {
    struct winsize ws;
    int fd = atomic_load(&screenFd);
    if (fd < 0) fd = STDOUT_FILENO;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
        *columns = ws.ws_col;
        *rows = ws.ws_row;
    } else {
        *columns = 80;
        *rows = 24;
    }
}
