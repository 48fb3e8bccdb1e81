#ifndef PRAYKIT_START_H
#define PRAYKIT_START_H

/// Which standard descriptors the process started without, as bits (1 for 0, 2 for 1, 4 for 2).
/// Each of them was given `/dev/null` before `main`, so that no file the program opens later can
/// take its number and receive what is meant for standard output.
int praykit_closed_standard_descriptors(void);

#endif
