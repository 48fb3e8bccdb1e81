// The data files, embedded byte for byte (clang's #embed; the compiler records them as dependencies,
// so SwiftPM rebuilds this file when a generator rewrites one). Read-only, in the binary's .rodata.
#include "praykit_places_data.h"

// #embed is C23; clang accepts it in the package's C17 mode as an extension (clang 19 and later).
// The pragma keeps that note out of the build rather than raising the language standard of every C
// target in the package.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char time_zone_boundaries[] = {
#embed "data/time-zone-boundaries.bin"
};

static const unsigned char gazetteer[] = {
#embed "data/gazetteer.txt"
};

static const unsigned char nearest_index[] = {
#embed "data/nearest.bin"
};

static const unsigned char compatibility_decompositions[] = {
#embed "data/compatibility.txt"
};

const unsigned char *praykit_time_zone_boundaries(size_t *count) {
    *count = sizeof time_zone_boundaries;
    return time_zone_boundaries;
}

const unsigned char *praykit_gazetteer(size_t *count) {
    *count = sizeof gazetteer;
    return gazetteer;
}

const unsigned char *praykit_nearest_index(size_t *count) {
    *count = sizeof nearest_index;
    return nearest_index;
}

const unsigned char *praykit_compatibility_decompositions(size_t *count) {
    *count = sizeof compatibility_decompositions;
    return compatibility_decompositions;
}
