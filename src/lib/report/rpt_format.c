/* How a report names a test and shows a duration (report/rpt_format.h). */
#include "report/rpt_format.h"

#include <stdio.h>
#include <string.h>

const char *an_rpt_case_name(const struct an_test_result *t)
{
    static const char sep[] = " \xE2\x80\x94 "; /* " — ", as the JSONL loader joins them */
    if (!t->id || !t->name)
        return NULL;
    size_t n = strlen(t->id);
    if (!strcmp(t->name, t->id))
        return NULL;
    if (!strncmp(t->name, t->id, n) && !strncmp(t->name + n, sep, sizeof sep - 1))
        return t->name + n + sizeof sep - 1;
    return t->name; /* a result from elsewhere (a merged file) named otherwise */
}

void an_rpt_title(struct an_buf *b, const struct an_test_result *t)
{
    if (!t->id) {
        an_buf_puts(b, t->name ? t->name : "(unnamed)");
        return;
    }
    const char *name = an_rpt_case_name(t);
    an_buf_printf(b, "[%s]", t->id);
    if (name) {
        an_buf_putc(b, ' ');
        an_buf_puts(b, name);
    }
}

double an_rpt_secs(int64_t ms)
{
    return (double)(ms > 0 ? ms : 0) / 1000.0;
}

const char *an_rpt_ms(char *buf, size_t cap, int64_t ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < 10000)
        snprintf(buf, cap, "%lldms", (long long)ms);
    else
        snprintf(buf, cap, "%.1fs", (double)ms / 1000.0);
    return buf;
}
