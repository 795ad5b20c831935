/* The AG-UI decoder's fast path, its reading part: whether an event is a
 * TEXT_MESSAGE_CONTENT or TOOL_CALL_ARGS written plainly (a flat object of
 * exactly `type`, the id and `delta`, all strings, no escape but in the
 * delta), and its id and delta, read straight from the bytes with no
 * jansson tree. Whether it may be applied that way is agui_decode.c's
 * decision (fast_delta). */
#include <stdbool.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "proto/agui_dec_int.h"

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    return s;
}

/* The layout nearly every producer writes (the reference encoder's,
 * JSON.stringify's): {"type":"...","<id key>":"<id>","delta":"<delta>"}.
 * Sets *s past the delta's opening quote's start (at the quote). */
static bool plain_layout(const char **s, const char *e, bool *text, const char **id,
                         size_t *id_len)
{
    static const char tpre[] = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"";
    static const char apre[] = "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"";
    static const char dpre[] = "\",\"delta\":";
    const char *p = *s;
    size_t n = (size_t)(e - p);
    if (n > sizeof tpre && !memcmp(p, tpre, sizeof tpre - 1))
        p += sizeof tpre - 1, *text = true;
    else if (n > sizeof apre && !memcmp(p, apre, sizeof apre - 1))
        p += sizeof apre - 1, *text = false;
    else
        return false;
    const char *q = memchr(p, '"', (size_t)(e - p));
    if (!q || q - p >= AN_AGUI_FAST_ID_MAX)
        return false;
    for (const char *c = p; c < q; c++) /* printable ASCII, no escape */
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x80 || *c == '\\')
            return false;
    if ((size_t)(e - q) < sizeof dpre || memcmp(q, dpre, sizeof dpre - 1))
        return false;
    *id = p;
    *id_len = (size_t)(q - p);
    *s = q + sizeof dpre - 1;
    return *s < e && **s == '"';
}

bool an_agui_fast_scan(const char *data, size_t len, struct an_buf *scratch, bool *text_out,
                       const char **id_out, size_t *id_len_out, const char **delta_out,
                       size_t *delta_len_out)
{
    const char *s = data, *e = data + len;
    const char *type = NULL, *id = NULL, *delta = NULL;
    size_t type_len = 0, id_len = 0, delta_len = 0;
    bool text_key = false; /* the id was `messageId`, not `toolCallId` */
    bool text = false;
    if (plain_layout(&s, e, &text, &id, &id_len)) {
        size_t used;
        if (!an_json_scan_string(s, (size_t)(e - s), scratch, &delta, &delta_len, &used))
            return false;
        s += used;
        if (s == e || *s != '}' || skip_ws(s + 1, e) != e)
            return false;
        goto known;
    }
    s = skip_ws(s, e);
    if (s == e || *s != '{')
        return false;
    s++;
    for (;;) {
        s = skip_ws(s, e);
        if (s == e || *s != '"')
            return false;
        const char *k = ++s;
        while (s < e && *s != '"' && *s != '\\' && (unsigned char)*s >= 0x20 &&
               (unsigned char)*s < 0x80)
            s++;
        if (s == e || *s != '"')
            return false;
        size_t klen = (size_t)(s - k);
        s = skip_ws(s + 1, e);
        if (s == e || *s != ':')
            return false;
        s = skip_ws(s + 1, e);
        if (s == e || *s != '"')
            return false;
        const char **val;
        size_t *vlen;
        if (klen == 4 && !memcmp(k, "type", 4))
            val = &type, vlen = &type_len;
        else if (klen == 5 && !memcmp(k, "delta", 5))
            val = &delta, vlen = &delta_len;
        else if ((klen == 9 && !memcmp(k, "messageId", 9)) ||
                 (klen == 10 && !memcmp(k, "toolCallId", 10)))
            val = &id, vlen = &id_len, text_key = klen == 9;
        else
            return false;
        if (*val) /* a key twice: jansson keeps the last */
            return false;
        size_t used;
        if (!an_json_scan_string(s, (size_t)(e - s), scratch, val, vlen, &used))
            return false;
        /* only the delta may have needed unescaping */
        if (val != &delta && (*val < data || *val >= e))
            return false;
        s = skip_ws(s + used, e);
        if (s == e)
            return false;
        if (*s == '}')
            break;
        if (*s != ',')
            return false;
        s++;
    }
    if (skip_ws(s + 1, e) != e || !type || !id || !delta || id_len >= AN_AGUI_FAST_ID_MAX)
        return false;
    if (text_key && type_len == 20 && !memcmp(type, "TEXT_MESSAGE_CONTENT", 20))
        text = true;
    else if (!text_key && type_len == 14 && !memcmp(type, "TOOL_CALL_ARGS", 14))
        text = false;
    else
        return false;
known:
    *text_out = text;
    *id_out = id;
    *id_len_out = id_len;
    *delta_out = delta;
    *delta_len_out = delta_len;
    return true;
}
