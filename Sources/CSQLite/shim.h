// The system SQLite (libsqlite3-dev on Debian). Only PrayServices imports this module.
#include <sqlite3.h>
