/* `target:` and each of `agents:` -> struct an_target, through the row of
 * its `type` (ananke/target_type.h); the keys every type has are read here. */
#include <stdarg.h>
#include <string.h>

#include "ananke/target_type.h"
#include "core/buf.h"
#include "load/config_int.h"

static int load_common(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                       struct an_target *t)
{
    struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(n, "timeout_ms"))) {
        if ((rc = an_ld_uint(ld, v, "timeout_ms", &t->timeout_ms)))
            return rc;
        if (t->timeout_ms == 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'timeout_ms' must be at least 1");
    }
    if ((v = an_yaml_get(n, "assert")) &&
        (rc = an_assert_load(ld, v, AN_LEVEL_TARGET, lib, &t->assert)))
        return rc;
    return 0;
}

static int unknown_type(struct an_ld *ld, const struct an_ynode *v, const char *type)
{
    const char *const *names = an_target_type_names();
    const char *near = an_closest(type, names);
    if (near)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "unknown target type '%s' (did you mean '%s'?)", type, near);
    struct an_buf b = AN_BUF_INIT;
    for (size_t i = 0; names[i]; i++)
        an_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
    int rc = an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown target type '%s' (supported: %s)", type,
                     an_buf_cstr(&b));
    an_buf_release(&b);
    return rc;
}

int an_target_load(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                   const char *what, struct an_target *t)
{
    struct an_ynode *v;
    const char *type;
    int rc;
    t->loc = n->loc;
    t->timeout_ms = 30000;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, what)) ||
        (rc = an_ld_require(ld, n, "type", what, &v)) || (rc = an_ld_string(ld, v, "type", &type)))
        return rc;
    const struct an_target_type *row = an_target_type_find(type);
    if (!row)
        return unknown_type(ld, v, type);
    t->type = row;
    rc = row->load(ld, n, t);
    if (!rc)
        rc = load_common(ld, n, lib, t);
    if (!rc && (v = an_yaml_get(n, "start")))
        rc = an_target_start_load(ld, v, t);
    if (!rc && row->finish)
        rc = row->finish(ld, t);
    return rc;
}

/* ---- ananke/target_type.h: the helpers a row's load() may use ---- */

int an_target_keys(struct an_ld *ld, const struct an_ynode *n, const char *const *keys,
                   const char *what)
{
    return an_ld_keys(ld, n, keys, what);
}

int an_target_key_string(struct an_ld *ld, const struct an_ynode *n, const char *key,
                         const char **out, struct an_loc *loc)
{
    struct an_ynode *v = an_yaml_get(n, key);
    if (!v)
        return 0;
    if (loc)
        *loc = v->loc;
    return an_ld_string(ld, v, key, out);
}

void *an_target_alloc(struct an_ld *ld, size_t size)
{
    return an_arena_alloc(ld->a, size ? size : 1);
}

int an_target_fail(struct an_ld *ld, const struct an_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = an_failv(ld->err, AN_ESCHEMA, loc, fmt, ap);
    va_end(ap);
    return rc;
}
