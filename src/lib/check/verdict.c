/* ananke/check_kind.h's verdict: what a check kind's evaluator found, in
 * the parts every finding of a typed check is worded from. */
#include <stdarg.h>

#include "check/check_int.h"

static struct an_buf *part(struct an_check_verdict *v, enum an_check_part p)
{
    switch (p) {
    case AN_CV_SUBJECT:
        return &v->subject;
    case AN_CV_VERB:
        return &v->verb;
    case AN_CV_EXPECTED:
        return &v->expected;
    case AN_CV_NEGATED_EXPECTED:
        return &v->negated_expected;
    case AN_CV_ACTUAL:
        return &v->actual;
    case AN_CV_DETAIL:
        break;
    }
    return &v->detail;
}

void an_check_verdict_set(struct an_check_verdict *v, bool ok)
{
    v->ok = ok;
}

void an_check_verdict_printf(struct an_check_verdict *v, enum an_check_part p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    an_buf_vprintf(part(v, p), fmt, ap);
    va_end(ap);
}

void an_check_verdict_quote(struct an_check_verdict *v, enum an_check_part p, const char *s,
                            size_t len)
{
    chk_quote(part(v, p), s, len);
}
