/* include/ananke/nofollow.h's string reader, over core/nofollow.c. */
#include "ananke/nofollow.h"
#include "core/buf.h"
#include "core/nofollow.h"

int an_nf_read_str(const char *root, const char *rel, size_t cap, char **out, size_t *len,
                   struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    int rc = an_nf_read(root, rel, cap, &b, err);
    *out = NULL;
    *len = 0;
    if (rc) {
        an_buf_release(&b);
        return rc;
    }
    *out = an_buf_detach(&b, len);
    return 0;
}
