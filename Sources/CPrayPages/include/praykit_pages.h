// The pages `praykit serve` serves (Sources/PrayServer/Pages: HTML, CSS and JavaScript modules as
// committed), compiled into the binary byte for byte with C23 #embed: nothing is read from disk at
// run time, so an installed `praykit` serves the same files wherever it is copied. Only PrayServer
// imports this module.
#ifndef PRAYKIT_PAGES_H
#define PRAYKIT_PAGES_H

#include <stddef.h>

// One embedded file: its URL path (`/display.css`), its media type and its bytes.
typedef struct {
    const char *path;
    const char *media_type;
    const unsigned char *bytes;
    size_t count;
} praykit_page_file;

// The embedded files; their number in `count`.
const praykit_page_file *praykit_page_files(size_t *count);

#endif
