/*
 * Attachments in JSONL messages (seed 002 "With Attachments"): a content
 * part such as {"type": "image", "source": "file://./fixtures/receipt.jpg"}
 * is read at load time, relative to the case file's directory, and becomes
 * an AG-UI ContentPart {"type": "image", "source": {"type": "data",
 * "value": <base64>, "mimeType": "image/jpeg"}} that every adapter turns
 * into its protocol's form (AG-UI sends it as is; OpenAI as image_url or
 * file parts).
 */
#ifndef ANANKE_LOAD_ATTACH_H
#define ANANKE_LOAD_ATTACH_H

#include <jansson.h>

#include "load/schema.h"

#define AN_ATTACH_MAX (20u << 20) /* one attachment: 20 MiB */

/* One part: text parts are copied; image/audio/video/document/file parts
 * take `source` as "file://PATH" (read now), "http(s)://URL" (sent as a
 * URL) or an AG-UI source object (as is); `mimeType` overrides the type
 * guessed from the file name. *out is a new reference. */
int an_attach_part(struct an_ld *ld, const char *dir, const json_t *part, const struct an_loc *loc,
                   json_t **out);

/* The MIME type of a file name by its extension; application/octet-stream
 * when unknown. */
const char *an_mime_of(const char *name);

#endif
