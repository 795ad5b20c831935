/* text.must_match / text.must_not_match over the scope's assistant text. */
#include <string.h>

#include "check/check_int.h"

/* Bytes of context shown on each side of a forbidden match. */
#define CONTEXT 40

static bool is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* The match with up to CONTEXT bytes around it, "…" where text was left out. */
static void put_context(struct an_buf *b, const char *t, size_t len, size_t so, size_t eo)
{
    size_t from = so > CONTEXT ? so - CONTEXT : 0;
    size_t to = len - eo > CONTEXT ? eo + CONTEXT : len;
    while (from < so && is_cont((unsigned char)t[from]))
        from++;
    while (to > eo && to < len && is_cont((unsigned char)t[to]))
        to--;
    struct an_buf raw = AN_BUF_INIT;
    if (from > 0)
        an_buf_puts(&raw, "…");
    an_buf_append(&raw, t + from, to - from);
    if (to < len)
        an_buf_puts(&raw, "…");
    an_buf_puts(b, "in ");
    chk_quote(b, raw.data ? raw.data : "", raw.len);
    an_buf_release(&raw);
}

static void text_label(struct an_buf *b, const char *verb, const struct an_regex *re)
{
    an_buf_printf(b, "Text %s ", verb);
    chk_regex(b, re);
}

size_t chk_text(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    const char *t = s->text ? s->text : "";
    size_t len = strlen(t), added = 0, so, eo;
    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT,
                  detail = AN_BUF_INIT;
    for (size_t k = 0; k < blk->nmust_match; k++) {
        const struct an_regex *re = blk->must_match[k].re;
        int m = chk_find(re, t, len, &so, &eo);
        if (m > 0)
            continue;
        an_buf_reset(&label);
        an_buf_reset(&expected);
        an_buf_reset(&actual);
        text_label(&label, "must match", re);
        an_buf_puts(&expected, "a match");
        if (m < 0) {
            chk_gave_up(&actual, re);
        } else if (len) {
            an_buf_puts(&actual, "no match in ");
            chk_quote(&actual, t, len);
        } else {
            an_buf_puts(&actual, "no match in empty text");
        }
        chk_add(out, "text.must_match", s, &blk->must_match[k].loc, &label, &expected, &actual,
                NULL);
        added++;
    }
    for (size_t k = 0; k < blk->nmust_not_match; k++) {
        const struct an_regex *re = blk->must_not_match[k].re;
        int m = chk_find(re, t, len, &so, &eo);
        if (m == 0)
            continue;
        an_buf_reset(&label);
        an_buf_reset(&expected);
        an_buf_reset(&actual);
        an_buf_reset(&detail);
        text_label(&label, "must not match", re);
        an_buf_puts(&expected, "no match");
        if (m < 0) {
            chk_gave_up(&actual, re);
        } else {
            an_buf_puts(&actual, "matched ");
            chk_quote(&actual, t + so, eo - so);
            an_buf_printf(&actual, " at byte %zu", so);
            put_context(&detail, t, len, so, eo);
        }
        chk_add(out, "text.must_not_match", s, &blk->must_not_match[k].loc, &label, &expected,
                &actual, &detail);
        added++;
    }
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    an_buf_release(&detail);
    return added;
}
