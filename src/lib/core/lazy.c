/* The loader behind core/lazy_curl.c and core/lazy_mhd.c (core/lazy.h). */
#include "core/lazy.h"

#include <dlfcn.h>
#include <stdio.h>

void an_lazy_open(struct an_lazy_lib *l)
{
    /* RTLD_LOCAL: its symbols are reached through the slots only, never
     * interposed on anything else in the process. RTLD_LAZY: functions
     * bound on first call, as for a linked library; RTLD_NOW cost 2.2 M
     * more instructions of symbol lookups in a 1,000-test run (callgrind) */
    void *h = dlopen(l->soname, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(l->why, sizeof l->why, "%s", e ? e : "dlopen failed");
        return;
    }
    for (size_t i = 0; i < l->nsyms; i++) {
        void *p = dlsym(h, l->syms[i].name);
        if (!p) {
            snprintf(l->why, sizeof l->why, "it has no '%s'", l->syms[i].name);
            return; /* left loaded: closing it is not worth the risk */
        }
        *l->syms[i].slot = p;
    }
    l->ok = true;
}

int an_lazy_fail(const struct an_lazy_lib *l, const char *what, struct an_err *err)
{
    if (l->ok)
        return AN_OK;
    return an_fail(err, AN_ENOTFOUND, NULL, "%s needs %s (%s), which could not be loaded: %s",
                   what ? what : "ananke", l->label, l->soname, l->why);
}
