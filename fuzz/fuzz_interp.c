/*
 * ${...} interpolation (core/interp.h): the syntax check the loaders run,
 * then the interpolation itself with a few variables set (one of them
 * holding a reference, which must not be expanded again), and the
 * run-time resolution of `.jsont` strings (as text and as a regex
 * literal). ${ENV.NAME} reads the environment: FUZZ_ENV is set.
 */
#include <stdlib.h>

#include "core/interp.h"
#include "fuzz.h"
#include "load/jsont.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("FUZZ_ENV", "env-value ${A} \\E\\Q", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = fz_strdup(data, size);
    struct an_loc loc = {.file = "fuzz.test.yaml", .line = 1, .col = 1};
    struct an_err err = AN_ERR_INIT;
    struct an_vars vars = AN_VARS_INIT;
    an_vars_set(&vars, "A", "alpha");
    an_vars_set(&vars, "B", "${A}");
    an_vars_set(&vars, "sessionId", "\\E.*\\Q");
    (void)an_interp_has_refs(src);
    int checked = an_interp_check(src, &loc, &err);
    char *out = NULL;
    int rc = an_interp(src, &loc, &vars, &out, &err);
    if (rc == 0 && checked != 0)
        abort(); /* what interpolates must pass the load-time check */
    free(out);
    for (int regex = 0; regex < 2; regex++) {
        out = NULL;
        if (an_jsont_resolve_str(src, &vars, regex, &out, &err) == 0)
            free(out);
    }
    json_t *j = json_pack("{s:[s,s]}", "k", src, "x");
    if (j) {
        json_t *o = NULL;
        (void)an_interp_check_json(j, &loc, &err);
        if (an_interp_json(j, &loc, &vars, &o, &err) == 0)
            json_decref(o);
        json_decref(j);
    }
    an_vars_release(&vars);
    free(src);
    return 0;
}
