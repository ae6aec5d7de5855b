/* SQLite's C API for the training history (Debian's libsqlite3, linked dynamically). */
#include <sqlite3.h>
