/* `view:` of the config (docs/view.md): the caps of `ananke view`, each a
 * whole number of at least 1; an absent key keeps its default. */
#include "load/config_int.h"
#include "load/schema.h"

int an_cfg_view(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    static const char *const keys[] = {"max_rows",        "max_page_bytes",  "max_results_bytes",
                                       "max_connections", "idle_timeout_ms", NULL};
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "view")) || (rc = an_ld_keys(ld, n, keys, "view")))
        return rc;
    const struct an_cfg_cap caps[] = {
        {"max_rows", &c->view.max_rows},
        {"max_page_bytes", &c->view.max_page_bytes},
        {"max_results_bytes", &c->view.max_results_bytes},
        {"max_connections", &c->view.max_connections},
        {"idle_timeout_ms", &c->view.idle_timeout_ms},
    };
    return an_cfg_caps(ld, n, caps, sizeof caps / sizeof *caps);
}
