/* Confinement where the system has no Linux namespaces (AN_HAVE_CONFINE 0,
 * core/port.h): never imitated, and never a silent weakening. Every entry
 * point says it is unavailable, so callers do what they do when a Linux
 * kernel refuses namespaces: `confine: required` is an error, `auto` warns
 * once and runs the agent unconfined (docs/security.md "Confinement"). */
#include "core/confine.h"
#include "core/port.h"

#if !AN_HAVE_CONFINE

#include <errno.h>
#include <stddef.h>

#define NO_NAMESPACES "cannot confine: this system has no Linux namespaces (unshare, mount_setattr)"

int an_confine_plan_new(struct an_confine_plan **out, const struct an_confine *c,
                        struct an_err *err)
{
    (void)c;
    *out = NULL;
    return an_fail(err, AN_EIO, NULL, NO_NAMESPACES);
}

void an_confine_plan_free(struct an_confine_plan *p)
{
    (void)p;
}

int an_confine_enter(const struct an_confine_plan *p, int report_fd, int *step)
{
    (void)p;
    (void)report_fd;
    *step = 0;
    errno = ENOSYS;
    return -1;
}

const char *an_confine_step_name(int step)
{
    (void)step;
    return "namespaces (not on this system)";
}

int an_confine_available(struct an_err *err)
{
    return an_fail(err, AN_EIO, NULL, NO_NAMESPACES);
}

#endif
