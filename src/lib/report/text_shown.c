/* include/ananke/text.h over the reports' own text writer. */
#include "ananke/text.h"
#include "core/buf.h"
#include "report/report_util.h"

char *an_text_shown(const char *s, size_t cut)
{
    struct an_buf b = AN_BUF_INIT;
    an_rpt_str(&b, s, cut, NULL, 0);
    return an_buf_detach(&b, NULL);
}
