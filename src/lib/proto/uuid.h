/*
 * Random (version 4) UUIDs for protocol ids: AG-UI thread, run and message
 * ids, and later A2A message ids.
 */
#ifndef ANANKE_PROTO_UUID_H
#define ANANKE_PROTO_UUID_H

#define AN_UUID_STR 37 /* 36 characters and the NUL */

/* Write a lowercase UUID v4 ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx") into
 * out. The bits come from /dev/urandom; if it cannot be read, from the
 * clock, the pid and a counter, which is unique though not unpredictable:
 * these ids name conversation objects, they are not secrets. */
void an_uuid4(char out[AN_UUID_STR]);

#endif
