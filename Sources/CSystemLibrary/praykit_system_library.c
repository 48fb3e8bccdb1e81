// See include/praykit_system_library.h.
#include "praykit_system_library.h"

// Linux only, as the header says: elsewhere this file compiles to nothing.
#if defined(__linux__)

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

// Debian's multiarch triplet of the architecture this file is compiled for.
#if defined(__x86_64__)
#define PRAYKIT_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define PRAYKIT_MULTIARCH "aarch64-linux-gnu"
#elif defined(__i386__)
#define PRAYKIT_MULTIARCH "i386-linux-gnu"
#elif defined(__arm__)
#define PRAYKIT_MULTIARCH "arm-linux-gnueabihf"
#elif defined(__riscv) && __riscv_xlen == 64
#define PRAYKIT_MULTIARCH "riscv64-linux-gnu"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define PRAYKIT_MULTIARCH "powerpc64le-linux-gnu"
#elif defined(__s390x__)
#define PRAYKIT_MULTIARCH "s390x-linux-gnu"
#endif

// The folders searched, in order: the distribution's own, none that a user can write.
static const char *const folders[] = {
#ifdef PRAYKIT_MULTIARCH
    "/usr/lib/" PRAYKIT_MULTIARCH,
    "/lib/" PRAYKIT_MULTIARCH,
#endif
#if __SIZEOF_POINTER__ == 8
    "/usr/lib64",
    "/lib64",
#endif
    "/usr/lib",
    "/lib",
};

// Whether `path` is a file root owns that neither its group nor others may write (the link itself
// may be anything: stat follows it to the file the loader opens).
static int trusted(const char *path) {
    struct stat status;
    return stat(path, &status) == 0 && S_ISREG(status.st_mode) && status.st_uid == 0 &&
           (status.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

void *praykit_system_library_open(const char *const *names, size_t count, char *error, size_t capacity) {
    char reason[256] = "";
    for (size_t name = 0; name < count; name++) {
        for (size_t folder = 0; folder < sizeof folders / sizeof folders[0]; folder++) {
            char path[512];
            if (snprintf(path, sizeof path, "%s/%s", folders[folder], names[name]) >= (int)sizeof path) continue;
            if (!trusted(path)) continue;
            void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (library) return library;
            // A file of another architecture (a 32-bit library in /usr/lib) is passed over.
            const char *message = dlerror();
            snprintf(reason, sizeof reason, "%s", message ? message : path);
        }
    }
    if (!error || capacity == 0) return NULL;
    if (reason[0]) {
        snprintf(error, capacity, "%s", reason);
        return NULL;
    }
    char searched[384] = "";
    for (size_t folder = 0; folder < sizeof folders / sizeof folders[0]; folder++) {
        size_t used = strlen(searched);
        snprintf(searched + used, sizeof searched - used, "%s%s", folder ? ", " : "", folders[folder]);
    }
    snprintf(error, capacity, "%s not found in %s", count ? names[0] : "the library", searched);
    return NULL;
}

#endif  // __linux__
