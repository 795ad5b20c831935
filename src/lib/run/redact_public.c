/* include/ananke/redact.h's calls that the runner's own headers do not
 * have (the others are declared in both: this file checks they agree). */
#include <string.h>

#include "ananke/redact.h"
#include "run/redact.h"
#include "run/redact_result.h"
#include "run/secrets.h"

struct an_redactor *an_redactor_for_suite(const struct an_suite *s, const char *const *patterns,
                                          size_t npatterns)
{
    struct an_redactor *r = an_redactor_new();
    struct an_err err = AN_ERR_INIT;
    for (size_t i = 0; i < npatterns; i++)
        (void)an_redactor_add_regex(r, patterns[i], &err); /* checked by the caller */
    struct an_vars none = AN_VARS_INIT;
    an_secrets_gather(r, &s->config, &none, NULL, NULL);
    return r;
}

char *an_redact_str(const struct an_redactor *r, const char *s)
{
    return s ? an_redact_text(r, s, strlen(s), NULL, NULL) : NULL;
}
