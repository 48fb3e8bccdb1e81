// The offline places' data, compiled into the binary as the generators wrote it (C23 #embed of the
// files in data/, see DATA-LICENSES.md there): Swift reads the bytes in place through these
// pointers — nothing is decoded, copied or allocated at load, and the system pages in only what a
// lookup reads. Only PrayPlaces imports this module.
#ifndef PRAYKIT_PLACES_DATA_H
#define PRAYKIT_PLACES_DATA_H

#include <stddef.h>

// The time zone boundaries (data/time-zone-boundaries.bin, Scripts/data/generate_timezones.py);
// their length in `count`.
const unsigned char *praykit_time_zone_boundaries(size_t *count);

// The gazetteer, UTF-8 text (data/gazetteer.txt, Scripts/data/generate_places.py); its length in
// `count`.
const unsigned char *praykit_gazetteer(size_t *count);

// The cities by position, for nearest-city lookups (data/nearest.bin,
// Scripts/data/generate_nearest.py); its length in `count`.
const unsigned char *praykit_nearest_index(size_t *count);

// Each Unicode scalar whose compatibility decomposition (NFKD) is not its canonical one, then that
// NFKD, in hexadecimal, a line each (data/compatibility.txt, Scripts/data/generate_compatibility.py);
// its length in `count`.
const unsigned char *praykit_compatibility_decompositions(size_t *count);
#endif
