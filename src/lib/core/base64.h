/* Base64 (RFC 4648, standard alphabet, padded). */
#ifndef ANANKE_CORE_BASE64_H
#define ANANKE_CORE_BASE64_H

#include <stddef.h>

/* A new NUL-terminated string; caller frees. */
char *an_base64_encode(const void *data, size_t n);

#endif
