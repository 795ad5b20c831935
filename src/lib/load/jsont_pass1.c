/* .jsont pass 1: the text interpolated (${NAME} outside strings), then
 * parsed; positions in its output mapped back to the source (jsont_int.h). */
#include "load/jsont_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

void jsont_pass1_release(struct pass1 *p)
{
    an_buf_release(&p->out);
    free(p->subs);
    free(p->refs);
    memset(p, 0, sizeof *p);
}

void jsont_src_loc(const char *text, size_t off, const char *file, struct an_loc *loc)
{
    unsigned line = 1, col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            col++;
        }
    }
    loc->file = file;
    loc->line = line;
    loc->col = col;
}

static bool name_char(char c, bool first)
{
    return isalpha((unsigned char)c) || c == '_' ||
           (!first && (isdigit((unsigned char)c) || c == '.'));
}

int jsont_pass1_run(struct pass1 *p, const char *file, const char *text, size_t len,
                    const char *caps_json, struct an_err *err)
{
    char pv[16];
    snprintf(pv, sizeof pv, "%d", AN_JSONT_PROTOCOL_VERSION);
    an_buf_init(&p->out, 0);
    bool in_str = false;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (in_str) {
            if (c == '\\' && i + 1 < len) {
                an_buf_append(&p->out, text + i, 2);
                i += 2;
                continue;
            }
            if (c == '"')
                in_str = false;
            if (c == '$' && i + 2 < len && text[i + 1] == '$' && text[i + 2] == '{') {
                an_buf_append(&p->out, text + i, 3);
                i += 3;
                continue;
            }
        } else if (c == '"') {
            in_str = true;
        }
        if (c != '$' || i + 1 >= len || text[i + 1] != '{') {
            an_buf_putc(&p->out, c);
            i++;
            continue;
        }
        size_t j = i + 2;
        while (j < len && name_char(text[j], j == i + 2))
            j++;
        struct an_loc loc;
        if (j >= len || text[j] != '}' || j == i + 2) {
            jsont_src_loc(text, i, file, &loc);
            size_t shown = j - i < 40 ? j - i + (j < len) : 40;
            return an_fail(err, AN_ESCHEMA, &loc,
                           "invalid variable reference '%.*s' (expected ${NAME})", (int)shown,
                           text + i);
        }
        size_t nlen = j - (i + 2);
        if (in_str) {
            if (nlen >= sizeof p->refs->name) {
                jsont_src_loc(text, i, file, &loc);
                return an_fail(err, AN_ESCHEMA, &loc, "variable name too long");
            }
            p->refs = an_xrealloc(p->refs, (p->nrefs + 1) * sizeof *p->refs);
            struct ref *r = &p->refs[p->nrefs++];
            memcpy(r->name, text + i + 2, nlen);
            r->name[nlen] = '\0';
            r->src = i;
            an_buf_append(&p->out, text + i, j + 1 - i);
            i = j + 1;
            continue;
        }
        const char *val = NULL;
        if (nlen == 22 && !strncmp(text + i + 2, "protocolVersionDefault", nlen))
            val = pv;
        else if (nlen == 25 && !strncmp(text + i + 2, "clientCapabilitiesDefault", nlen)) {
            val = caps_json;
            p->uses_caps = true;
        }
        if (!val) {
            jsont_src_loc(text, i, file, &loc);
            return an_fail(err, AN_EVAR, &loc,
                           "'${%.*s}' outside a string: only ${protocolVersionDefault} and "
                           "${clientCapabilitiesDefault} can stand for a JSON value (write "
                           "\"${%.*s}\")",
                           (int)nlen, text + i + 2, (int)nlen, text + i + 2);
        }
        p->subs = an_xrealloc(p->subs, (p->nsubs + 1) * sizeof *p->subs);
        p->subs[p->nsubs++] = (struct subst){p->out.len, strlen(val), i, j + 1 - i};
        an_buf_puts(&p->out, val);
        i = j + 1;
    }
    return AN_OK;
}

/* An offset in pass 1's output back to the source. */
static size_t map_back(const struct pass1 *p, size_t off)
{
    long delta = 0;
    for (size_t k = 0; k < p->nsubs; k++) {
        const struct subst *s = &p->subs[k];
        if (off < s->out)
            break;
        if (off < s->out + s->out_len)
            return s->src;
        delta = (long)(s->src + s->src_len) - (long)(s->out + s->out_len);
    }
    return (size_t)((long)off + delta);
}

json_t *jsont_pass1_parse(struct pass1 *p, const char *file, const char *text, struct an_err *err)
{
    json_error_t je;
    json_t *v = json_loadb(an_buf_cstr(&p->out), p->out.len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        struct an_loc loc;
        size_t off = je.position > 0 ? (size_t)je.position - 1 : 0;
        jsont_src_loc(text, map_back(p, off), file, &loc);
        an_fail(err, AN_EPARSE, &loc, "invalid JSON after interpolation: %s",
                an_json_error_text(&je));
    }
    return v;
}

void jsont_loc_at(const struct jsont_ld *l, const char *path, struct an_loc *loc)
{
    loc->file = l->file;
    loc->line = 0;
    loc->col = 0;
    if (!path || !*path || !l->pass || !l->src)
        return;
    const struct pass1 *p = l->pass;
    size_t off = jsont_locate(an_buf_cstr(&p->out), p->out.len, path);
    jsont_src_loc(l->src, map_back(p, off), l->file, loc);
}
