/* Option tables (cli.h "struct cli_option"): one row per option of a
 * subcommand, from which its parsing, its --help and its "did you mean"
 * come. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define HELP_COL 27 /* where an option's description starts */

/* "  -c, --config FILE" (the part left of the description) into b. */
static size_t option_head(const struct cli_option *o, char *b, size_t cap)
{
    int n = snprintf(b, cap, "  %s%s%s%s%s", o->alias ? o->alias : "  ", o->alias ? ", " : "  ",
                     o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void cli_options_help(const struct cli_option *opts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct cli_option *o = &opts[i];
        if (o->hidden)
            continue;
        char head[128];
        size_t len = option_head(o, head, sizeof head);
        const char *h = o->help ? o->help : "";
        fputs(head, stdout);
        if (*h == '\n') /* the description starts on a line of its own */
            printf("\n%*s", HELP_COL, ""), h++;
        else
            printf("%*s", len < HELP_COL ? (int)(HELP_COL - len) : 2, "");
        /* every further line of the description is indented to its column */
        for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
            printf("%.*s\n%*s", (int)(nl - h), h, HELP_COL, "");
        puts(h);
        if (o->more)
            o->more();
    }
}

void cli_help_wrap(int indent, int first, const char *text)
{
    int col = first;
    bool line_start = true;
    for (const char *p = text; *p;) {
        int w = (int)strcspn(p, " ");
        if (!line_start && col + 1 + w > 79) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (!line_start) {
            putchar(' ');
            col++;
        }
        printf("%.*s", w, p);
        col += w;
        line_start = false;
        for (p += w; *p == ' '; p++)
            ;
    }
    putchar('\n');
}

/* The row argv[*i] names ("--name", "--name=VALUE" or the alias), or NULL;
 * *val is the value for an option that takes one (NULL and a usage error
 * in *rc when it is missing). */
static const struct cli_option *match(const char *cmd, const struct cli_option *opts, size_t n,
                                      int argc, char **argv, int *i, const char **val, int *rc)
{
    const char *a = argv[*i];
    /* a row's own spelling first: a flag "-vv" is not "-v" with "v" */
    for (size_t k = 0; k < n; k++) {
        const struct cli_option *o = &opts[k];
        if (o->help_only)
            continue;
        if (!strcmp(a, o->name) || (o->alias && !strcmp(a, o->alias)) ||
            (o->arg && !strncmp(a, o->name, strlen(o->name)) && a[strlen(o->name)] == '=')) {
            if (!o->arg)
                return *val = NULL, o;
            if (cli_opt(cmd, argc, argv, i, o->name, o->alias, val, rc))
                return o;
        }
    }
    /* then a short alias with its value attached: "-j16" */
    for (size_t k = 0; k < n; k++) {
        const struct cli_option *o = &opts[k];
        if (!o->help_only && o->arg && o->alias &&
            cli_opt(cmd, argc, argv, i, o->name, o->alias, val, rc))
            return o;
    }
    return NULL;
}

int cli_parse(const struct cli_command *c, int argc, char **argv, void *ctx, bool *helped)
{
    int rc = 0;
    *helped = false;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i], *val = NULL;
        if (cli_opt_help(a)) {
            c->usage();
            *helped = true;
            return 0;
        }
        const struct cli_option *o = match(c->name, c->opts, c->nopts, argc, argv, &i, &val, &rc);
        if (o) {
            if (rc)
                break;
            if (o->handle)
                rc = o->handle(ctx, val);
            else if (o->arg) /* a field: the value, borrowed from argv */
                *(const char **)(void *)((char *)ctx + o->field) = val;
            else
                *(bool *)(void *)((char *)ctx + o->field) = true;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_table_option(c->name, a, c->opts, c->nopts);
        } else {
            rc = c->positional(ctx, a);
        }
    }
    return rc;
}
