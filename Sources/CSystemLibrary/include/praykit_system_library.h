// Loading a system library by absolute path, for the loaders of CCurl and CMicroHTTPD.
#ifndef PRAYKIT_SYSTEM_LIBRARY_H
#define PRAYKIT_SYSTEM_LIBRARY_H

// Linux only, like its users: elsewhere this module is empty.
#if defined(__linux__)

#include <stddef.h>

// Opens the first of `names` (sonames such as "libcurl.so.4", tried in order) found in the system's
// library folders — the multiarch folders of this build's architecture, /usr/lib64, /lib64, /usr/lib
// and /lib — by absolute path, and only a file that root owns and no one else may write. Never by a
// bare soname: the dynamic loader would search the executable's RUNPATH first, and SwiftPM gives
// executables `$ORIGIN`, so a file planted next to the binary would be loaded.
// Returns the handle, or NULL with a message in `error` (which library, where it was looked for, and
// the loader's reason).
void *praykit_system_library_open(const char *const *names, size_t count, char *error, size_t capacity);

#endif  // __linux__

#endif
