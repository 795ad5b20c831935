/* The target types: the built-in rows, then those registered from outside
 * (ananke/target_type.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "run/target_conf_int.h"

/* In this order in "supported: ..." (docs/config.md lists them so). */
static const struct an_target_type *const builtin[] = {
    &an_target_agui, &an_target_acp, &an_target_openai,
    &an_target_http, &an_target_mcp, &an_target_a2a,
};
#define NBUILTIN (sizeof builtin / sizeof *builtin)

/* Rows from outside: few, added before the first load (a constructor). */
#define MAX_EXTRA 32
static const struct an_target_type *extra[MAX_EXTRA];
static size_t nextra;
/* every row's name, built-in ones first: filled once, then appended to by
 * an_target_type_register(); loaders on several threads only read it */
static const char *names[NBUILTIN + MAX_EXTRA + 1];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
    for (size_t i = 0; i < NBUILTIN; i++)
        names[i] = builtin[i]->name;
}

const struct an_target_type *an_target_type_find(const char *name)
{
    for (size_t i = 0; i < NBUILTIN; i++)
        if (!strcmp(builtin[i]->name, name))
            return builtin[i];
    for (size_t i = 0; i < nextra; i++)
        if (!strcmp(extra[i]->name, name))
            return extra[i];
    return NULL;
}

bool an_target_type_register(const struct an_target_type *row)
{
    if (!row || !row->name || !row->name[0] || !row->load || !row->open ||
        an_target_type_find(row->name) || nextra == MAX_EXTRA)
        return false;
    pthread_once(&names_once, names_init);
    names[NBUILTIN + nextra] = row->name;
    extra[nextra++] = row;
    return true;
}

const char *const *an_target_type_names(void)
{
    pthread_once(&names_once, names_init);
    return names;
}
