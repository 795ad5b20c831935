/* The minimal environment of an agent that does not inherit ananke's
 * (envmin.h). */
#include "core/envmin.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"

static char *pair(const char *name, const char *value)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "%s=%s", name, value);
    return an_buf_detach(&b, NULL);
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && v[0] ? v : fallback;
}

char **an_envmin_build(const char *home, const char *const *extra)
{
    size_t m = 0;
    while (extra && extra[m])
        m++;
    char **env = an_xcalloc(m + 6, sizeof *env);
    size_t k = 0;
    const char *h = home ? home : env_or("HOME", "/");
    env[k++] = pair("PATH", env_or("PATH", "/usr/local/bin:/usr/bin:/bin"));
    env[k++] = pair("HOME", h);
    env[k++] = pair("TMPDIR", h);
    env[k++] = pair("LANG", env_or("LANG", "C.UTF-8"));
    env[k++] = pair("TERM", env_or("TERM", "dumb"));
    for (size_t i = 0; i < m; i++)
        env[k++] = an_xstrdup(extra[i]);
    env[k] = NULL;
    return env;
}

void an_envmin_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}
