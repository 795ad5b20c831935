/* A compliance result redacted in place (run/comply_redact.h). */
#include "run/comply_redact.h"

#include <stdlib.h>
#include <string.h>

static void str(const struct an_redactor *r, char **s)
{
    if (!*s)
        return;
    char *out = an_redact_quoted(r, *s, strlen(*s), NULL, NULL);
    if (!out)
        return;
    free(*s);
    *s = out;
}

/* A JSON value of the agent's (its initialize result, a session's modes):
 * its strings searched joined, as a stream's are. */
static void tree(const struct an_redactor *r, json_t **v)
{
    if (!*v)
        return;
    json_t *out = an_redact_tree(r, *v, NULL);
    if (!out)
        return; /* nothing to redact */
    json_decref(*v);
    *v = out;
}

void an_comply_test_redact(struct an_comply_test *t, const struct an_redactor *r)
{
    if (!t || an_redactor_empty(r))
        return;
    str(r, &t->id);
    str(r, &t->title);
    str(r, &t->description);
    str(r, &t->area);
    for (size_t i = 0; i < t->ndocs; i++)
        str(r, &t->docs[i]);
    str(r, &t->na_reason);
    for (size_t i = 0; i < t->nunmet; i++) {
        struct an_comply_unmet *u = &t->unmet[i];
        str(r, &u->kind);
        str(r, &u->message);
        str(r, &u->expected);
        str(r, &u->closest);
        for (size_t k = 0; k < u->ndiff; k++)
            str(r, &u->diff[k]);
    }
    str(r, &t->stderr_tail);
    for (size_t i = 0; i < t->nnotes; i++)
        str(r, &t->notes[i]);
}

void an_comply_agent_redact(struct an_comply_agent *a, const struct an_redactor *r)
{
    if (!a || an_redactor_empty(r))
        return;
    str(r, &a->name);
    str(r, &a->command);
    tree(r, &a->init);
    str(r, &a->init_error);
    tree(r, &a->modes);
    tree(r, &a->commands);
}
