/* seed 002's -i: files, inline messages, generator agents, case scripts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ananke/input.h"

void cli_inputs_release(struct cli_inputs *in)
{
    for (size_t i = 0; i < in->nmem; i++) {
        free((char *)in->mem[i].name);
        free((char *)in->mem[i].text);
    }
    free(in->mem);
    free(in->mem_src);
    free(in->paths);
    free(in->src);
    memset(in, 0, sizeof *in);
}

/* Cases from the src-th -i; kept in the order the sources were given. */
static void add_mem(struct cli_inputs *in, size_t src, const char *name, char *text, size_t len)
{
    in->mem = an_xrealloc(in->mem, (in->nmem + 1) * sizeof *in->mem);
    in->mem_src = an_xrealloc(in->mem_src, (in->nmem + 1) * sizeof *in->mem_src);
    size_t at = in->nmem;
    while (at > 0 && in->mem_src[at - 1] > src) {
        in->mem[at] = in->mem[at - 1];
        in->mem_src[at] = in->mem_src[at - 1];
        at--;
    }
    in->mem[at] = (struct an_mem_file){an_xstrdup(name), text, len};
    in->mem_src[at] = src;
    in->nmem++;
}

/* What must be known before anything loads: is each -i a path or text? */
int cli_inputs_prepare(struct cli_inputs *in)
{
    size_t ninline = 0, k = 0;
    struct stat st;
    for (size_t i = 0; i < in->nsrc; i++) {
        const char *s = in->src[i];
        if (strncmp(s, "agents:", 7) && strncmp(s, "scripts:", 8) && stat(s, &st) != 0)
            ninline++;
    }
    for (size_t i = 0; i < in->nsrc; i++) {
        const char *s = in->src[i];
        if (!strncmp(s, "agents:", 7)) {
            in->generators = true;
            continue;
        }
        if (!strncmp(s, "scripts:", 8)) {
            char *text = NULL;
            size_t len = 0;
            struct an_err err = AN_ERR_INIT;
            if (an_script_cases(s + 8, &text, &len, &err))
                return cli_usage_error("-i %s: %s", s, err.msg);
            add_mem(in, i, s, text, len);
            continue;
        }
        if (stat(s, &st) == 0) {
            in->paths = an_xrealloc(in->paths, (in->npaths + 1) * sizeof *in->paths);
            in->paths[in->npaths++] = (char *)s;
            continue;
        }
        /* an inline message: one case (seed 002's -i "Hello"), id "input",
         * or input-1, input-2 ... when there are several */
        char id[32];
        if (ninline > 1)
            snprintf(id, sizeof id, "input-%zu", ++k);
        else
            snprintf(id, sizeof id, "input");
        char *line = an_inline_case(s, id);
        add_mem(in, i, "-i", line, strlen(line));
    }
    return 0;
}

int cli_inputs_generate(struct cli_inputs *in, const struct an_config *cfg)
{
    FILE *save = NULL;
    if (in->save_path && !(save = fopen(in->save_path, "w")))
        return cli_usage_error("--save-generated %s: cannot write", in->save_path);
    int rc = 0;
    for (size_t i = 0; i < in->nsrc && !rc; i++) {
        const char *s = in->src[i];
        if (strncmp(s, "agents:", 7))
            continue;
        struct an_gen_spec g;
        struct an_err err = AN_ERR_INIT;
        char *text = NULL;
        size_t len = 0;
        if (an_gen_spec_parse(s, &g, &err)) {
            rc = cli_usage_error("-i %s: %s", s, err.msg);
            break;
        }
        fprintf(stderr, "ananke: asking agent '%s' for %u case%s ...\n", g.agent, g.count,
                g.count == 1 ? "" : "s");
        if (an_generate_cases(cfg, &g, &text, &len, &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: -i %s: %s\n", s, an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_INVALID;
        } else {
            if (save && fwrite(text, 1, len, save) != len)
                rc = cli_usage_error("--save-generated %s: write failed", in->save_path);
            add_mem(in, i, in->save_path ? in->save_path : s, text, len);
        }
        an_gen_spec_release(&g);
    }
    if (save && fclose(save) && !rc)
        rc = cli_usage_error("--save-generated %s: write failed", in->save_path);
    return rc;
}
