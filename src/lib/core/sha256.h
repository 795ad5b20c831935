/*
 * SHA-256 (FIPS 180-4) of a whole buffer at once: the HTML report's CSP
 * script hash, the evidence pack's file hashes, a recording's config hash.
 * Not for secrets: no constant-time promise.
 */
#ifndef ANANKE_CORE_SHA256_H
#define ANANKE_CORE_SHA256_H

#include <stddef.h>

#define AN_SHA256_LEN 32     /* digest bytes */
#define AN_SHA256_HEX_LEN 64 /* hex digits, without the NUL */

void an_sha256(const void *data, size_t len, unsigned char out[AN_SHA256_LEN]);
/* The digest as lowercase hex, NUL-terminated. */
void an_sha256_hex(const void *msg, size_t len, char out[AN_SHA256_HEX_LEN + 1]);

#endif
