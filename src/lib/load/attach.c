/* Attachments in JSONL messages (attach.h). */
#include "load/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/base64.h"
#include "core/json.h"

const char *an_mime_of(const char *name)
{
    static const char *const map[][2] = {
        {"jpg", "image/jpeg"},      {"jpeg", "image/jpeg"},       {"png", "image/png"},
        {"gif", "image/gif"},       {"webp", "image/webp"},       {"svg", "image/svg+xml"},
        {"pdf", "application/pdf"}, {"txt", "text/plain"},        {"md", "text/markdown"},
        {"csv", "text/csv"},        {"json", "application/json"}, {"html", "text/html"},
        {"mp3", "audio/mpeg"},      {"wav", "audio/wav"},         {"ogg", "audio/ogg"},
        {"mp4", "video/mp4"},       {"webm", "video/webm"},
    };
    const char *dot = strrchr(name, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
            if (!strcasecmp(dot + 1, map[i][0]))
                return map[i][1];
    return "application/octet-stream";
}

static int read_all(struct an_ld *ld, const char *path, const char *shown, const struct an_loc *loc,
                    char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return an_fail(ld->err, AN_EIO, loc, "attachment '%s' cannot be read (%s): %s", shown, path,
                       strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = an_xmalloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = an_xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > AN_ATTACH_MAX) {
            fclose(f);
            free(buf);
            return an_fail(ld->err, AN_ELIMIT, loc, "attachment '%s' is larger than %u MiB", shown,
                           AN_ATTACH_MAX >> 20);
        }
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return an_fail(ld->err, AN_EIO, loc, "attachment '%s' cannot be read (%s)", shown, path);
    }
    *data = buf;
    *len = n;
    return 0;
}

int an_attach_part(struct an_ld *ld, const char *dir, const json_t *part, const struct an_loc *loc,
                   json_t **out)
{
    static const char *const kinds[] = {"image", "audio", "video", "document", "file", NULL};
    *out = NULL;
    const char *type = an_json_str(part, "type");
    if (!json_is_object(part) || !type)
        return an_fail(ld->err, AN_ESCHEMA, loc,
                       "a content part needs 'type' (text, image, audio, video, document, file)");
    if (!strcmp(type, "text")) {
        if (!json_is_string(json_object_get(part, "text")))
            return an_fail(ld->err, AN_ESCHEMA, loc, "a text part needs 'text' (a string)");
        *out = json_pack("{s:s,s:O}", "type", "text", "text", json_object_get(part, "text"));
        return 0;
    }
    size_t k = 0;
    while (kinds[k] && strcmp(kinds[k], type))
        k++;
    if (!kinds[k]) {
        const char *near = an_closest(type, kinds);
        return an_fail(ld->err, AN_ESCHEMA, loc, "unknown content part type '%s'%s%s%s", type,
                       near ? " (did you mean '" : " (text, image, audio, video, document, file)",
                       near ? near : "", near ? "'?)" : "");
    }
    const char *agui_type = strcmp(type, "file") ? type : "document";
    const json_t *src = json_object_get(part, "source");
    if (!src)
        src = json_object_get(part, "url");
    const char *mime = an_json_str(part, "mimeType");
    if (json_is_object(src)) {
        /* already an AG-UI source: sent as written */
        *out = json_pack("{s:s,s:O}", "type", agui_type, "source", src);
        return 0;
    }
    const char *s = json_string_value(src);
    if (!s || !*s)
        return an_fail(ld->err, AN_ESCHEMA, loc,
                       "a%s %s part needs 'source': \"file://PATH\" (relative to this file) or "
                       "an http(s) URL",
                       k == 0 ? "n" : "", type);
    json_t *source;
    if (!strncmp(s, "http://", 7) || !strncmp(s, "https://", 8)) {
        source = json_pack("{s:s,s:s}", "type", "url", "value", s);
        if (mime)
            json_object_set_new(source, "mimeType", json_string(mime));
    } else if (!strncmp(s, "file://", 7)) {
        const char *p = s + 7;
        if (!*p)
            return an_fail(ld->err, AN_ESCHEMA, loc, "'%s' names no file", s);
        char *path = p[0] == '/' || !strcmp(dir, ".") ? an_xstrdup(p) : NULL;
        if (!path) {
            size_t n = strlen(dir) + strlen(p) + 2;
            path = an_xmalloc(n);
            snprintf(path, n, "%s/%s", dir, p);
        }
        char *data = NULL;
        size_t len = 0;
        int rc = read_all(ld, path, s, loc, &data, &len);
        free(path);
        if (rc)
            return rc;
        char *b64 = an_base64_encode(data, len);
        free(data);
        source = json_pack("{s:s,s:s,s:s}", "type", "data", "value", b64, "mimeType",
                           mime ? mime : an_mime_of(p));
        free(b64);
    } else {
        return an_fail(ld->err, AN_ESCHEMA, loc,
                       "'source' must be \"file://PATH\" or an http(s) URL, not '%s'", s);
    }
    json_t *o = json_pack("{s:s,s:o}", "type", agui_type, "source", source);
    /* the name travels in metadata (AG-UI parts have no filename): an
     * OpenAI file part needs one */
    const char *fname = an_json_str(part, "filename");
    if (!fname && !strncmp(s, "file://", 7)) {
        fname = strrchr(s + 7, '/');
        fname = fname ? fname + 1 : s + 7;
    }
    if (fname && *fname)
        json_object_set_new(o, "metadata", json_pack("{s:s}", "filename", fname));
    *out = o;
    return 0;
}
