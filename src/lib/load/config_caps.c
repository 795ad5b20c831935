/* Optional size caps of a target or a hook (hooks: test_file.c): whole numbers, at least 1
 * (config_int.h). */
#include "load/config_int.h"

int an_cfg_caps(struct an_ld *ld, const struct an_ynode *n, const struct an_cfg_cap *caps,
                size_t ncaps)
{
    for (size_t k = 0; k < ncaps; k++) {
        struct an_ynode *v = an_yaml_get(n, caps[k].key);
        int rc;
        if (!v)
            continue;
        if ((rc = an_ld_uint(ld, v, caps[k].key, caps[k].out)))
            return rc;
        if (*caps[k].out < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' must be at least 1", caps[k].key);
    }
    return 0;
}
