/*
 * The regex-subset matcher of compliance expectations (core/jsonmatch.h):
 * the input is a JSON array [expected, actual]; the pattern is checked
 * (as the loader does), matched, scored and diffed.
 */
#include <stdlib.h>

#include "core/jsonmatch.h"
#include "core/json.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[128];
    json_t *j = an_json_parse((const char *)data, size, why, sizeof why);
    if (!j)
        return 0;
    const json_t *exp = json_array_get(j, 0), *act = json_array_get(j, 1);
    if (exp && act) {
        struct an_loc loc = {.file = "fuzz.jsont", .line = 1, .col = 1};
        struct an_err err = AN_ERR_INIT;
        (void)an_jm_check(exp, &loc, &err);
        (void)an_jm_match(exp, act);
        size_t total;
        (void)an_jm_score(exp, act, &total);
        char **lines = NULL;
        size_t n = 0;
        an_jm_diff(exp, act, &lines, &n);
        for (size_t i = 0; i < n; i++)
            free(lines[i]);
        free(lines);
        free(an_jm_stringify(act));
    }
    json_decref(j);
    return 0;
}
