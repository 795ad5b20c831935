/*
 * Regular expressions as tests write them (ananke/regex.h): the first line
 * of the input is the pattern, `pattern` or `/pattern/flags`, the rest the
 * subject. Also compiled the way compliance expectations compile a string
 * leaf (an_jm_compile: never the slash form). A pattern that backtracks
 * catastrophically must be stopped by the match limits, not hang: the
 * run's -timeout catches it.
 */
#include <stdlib.h>

#include "ananke/regex.h"
#include "core/jsonmatch.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *pat;
    const uint8_t *subj;
    size_t n;
    fz_split(data, size, &pat, &subj, &n);
    /* a heap copy of the subject, so a read past its end is seen */
    char *s = fz_strdup(subj, n);
    struct an_loc loc = {.file = "fuzz.test.yaml", .line = 1, .col = 1};
    struct an_err err = AN_ERR_INIT;
    struct an_regex *re = NULL;
    if (an_regex_compile(&re, pat, &loc, &err) == 0) {
        (void)an_regex_search(re, s, n);
        an_regex_free(re);
    }
    re = NULL;
    if (an_jm_compile(&re, pat, &loc, &err) == 0) {
        (void)an_regex_search(re, s, n);
        an_regex_free(re);
    }
    free(s);
    free(pat);
    return 0;
}
