/* include/ananke/interp.h: the environment alone. */
#include "ananke/interp.h"
#include "core/interp.h"

int an_interp_env(const char *src, const struct an_loc *loc, char **out, struct an_err *err)
{
    struct an_vars none = AN_VARS_INIT;
    return an_interp(src, loc, &none, out, err);
}
