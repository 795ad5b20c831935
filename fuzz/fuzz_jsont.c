/*
 * `.jsont` compliance tests (load/jsont.h): load-time interpolation of the
 * raw text, the JSON parse mapped back to the raw file, and the model;
 * then every step value is resolved as a run would (run-time variables,
 * as text and as regex literals).
 */
#include <stdlib.h>

#include "core/interp.h"
#include "fuzz.h"
#include "load/jsont.h"

static void resolve(const json_t *v, const struct an_vars *vars)
{
    if (!v)
        return;
    for (int regex = 0; regex < 2; regex++) {
        json_t *out = NULL;
        struct an_err err = AN_ERR_INIT;
        if (an_jsont_resolve(v, vars, regex, &out, &err) == 0)
            json_decref(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct an_jsont *t = NULL;
    struct an_err err = AN_ERR_INIT;
    if (an_jsont_load_text(&t, "fuzz.jsont", (const char *)data, size, &err) == 0) {
        struct an_vars vars = AN_VARS_INIT;
        an_vars_set(&vars, "sandbox", "/tmp/sandbox");
        an_vars_set(&vars, "sessionId", "s-1");
        an_vars_set(&vars, "threadId", "t-1");
        an_vars_set(&vars, "runId", "r-1");
        an_vars_set(&vars, "suiteDir", "/tmp");
        for (size_t i = 0; i < t->nsteps; i++) {
            const struct an_jsont_step *s = &t->steps[i];
            resolve(s->frame, &vars);
            for (size_t k = 0; k < s->nmsgs; k++) {
                resolve(s->msgs[k].pattern, &vars);
                resolve(s->msgs[k].reply, &vars);
            }
            if (s->agui) {
                resolve(s->agui->input, &vars);
                resolve(s->agui->expect, &vars);
                resolve(s->agui->any_of, &vars);
            }
            for (size_t k = 0; k < s->ncaptures; k++)
                (void)an_jsont_path(s->frame, s->captures[k].path);
        }
        an_vars_release(&vars);
    }
    an_jsont_free(t);
    return 0;
}
