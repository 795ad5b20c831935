/*
 * Growing arrays: `AN_GROW(arr, n, cap)` makes room for one more element
 * of a malloc'd array (doubling, from 8). Aborts on out of memory.
 */
#ifndef ANANKE_CORE_VEC_H
#define ANANKE_CORE_VEC_H

#include "ananke/err.h"

#define AN_GROW(arr, n, cap)                                                                       \
    do {                                                                                           \
        if ((n) == (cap)) {                                                                        \
            (cap) = (cap) ? (cap)*2 : 8;                                                           \
            (arr) = an_xrealloc((arr), (cap) * sizeof *(arr));                                     \
        }                                                                                          \
    } while (0)

#endif
