// Runs before main and before the Swift runtime opens anything: a process started with a standard
// descriptor closed (`praykit times >&-`) would otherwise hand that number to the first file or
// eventfd opened, and results would be written there.
#include "praykit_start.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int closed_descriptors = 0;

__attribute__((constructor)) static void praykit_reserve_standard_descriptors(void) {
    for (int descriptor = 0; descriptor <= 2; descriptor++) {
        if (fcntl(descriptor, F_GETFD) != -1 || errno != EBADF) continue;
        closed_descriptors |= 1 << descriptor;
        int replacement = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY);
        if (replacement >= 0 && replacement != descriptor) {
            dup2(replacement, descriptor);
            close(replacement);
        }
    }
}

int praykit_closed_standard_descriptors(void) { return closed_descriptors; }
