/*
 * SHA-256 (FIPS 180-4) of a whole buffer at once: the HTML report's CSP
 * script hash, the evidence pack's file hashes, a recording's config hash.
 * Not for secrets: no constant-time promise.
 */
#ifndef ANANKE_CORE_SHA256_H
#define ANANKE_CORE_SHA256_H

#include <stdbool.h>
#include <stddef.h>

#define AN_SHA256_LEN 32     /* digest bytes */
#define AN_SHA256_HEX_LEN 64 /* hex digits, without the NUL */

void an_sha256(const void *data, size_t len, unsigned char out[AN_SHA256_LEN]);
/* The same in C only, never with the CPU's SHA instructions: for the tests,
 * which compare the two paths. */
void an_sha256_portable(const void *data, size_t len, unsigned char out[AN_SHA256_LEN]);
/* Whether an_sha256 uses the CPU's SHA instructions here (x86-64 SHA-NI). */
bool an_sha256_accelerated(void);
/* The digest as lowercase hex, NUL-terminated. */
void an_sha256_hex(const void *msg, size_t len, char out[AN_SHA256_HEX_LEN + 1]);

#endif
