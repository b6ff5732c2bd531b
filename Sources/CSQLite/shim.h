// The SQLite 3 C API (https://sqlite.org/c3ref/intro.html), with the R*Tree module Debian builds in.
#include <sqlite3.h>
