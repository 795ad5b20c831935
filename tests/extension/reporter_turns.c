/* Two reporters that differ only in their row's no_messages (ananke/
 * reporter.h): each writes, per test, its name and how many messages its
 * last turn's record holds ("-" when none were built). tests/e2e/
 * ext-reporter runs them: a row that does not say no_messages gets the
 * conversation, as every row did before the flag; a run whose reports all
 * say it builds none for a test's last turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/reporter.h"

static int write_turns(const struct an_run_result *r, const char *path, struct an_err *err)
{
    bool std = !path || !strcmp(path, "-");
    FILE *f = std ? stdout : fopen(path, "w");
    if (!f)
        return an_fail(err, AN_EIO, NULL, "cannot write '%s'", path);
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_transcript *t = &r->tests[i].transcript;
        const json_t *m = t->nturns ? t->turns[t->nturns - 1].messages : NULL;
        if (m)
            fprintf(f, "%s: %zu messages\n", r->tests[i].name, json_array_size(m));
        else
            fprintf(f, "%s: -\n", r->tests[i].name);
    }
    if (std ? fflush(f) != 0 : fclose(f) != 0)
        return an_fail(err, AN_EIO, NULL, "cannot write '%s'", path);
    return AN_OK;
}

static const struct an_reporter turns = {
    .name = "turns",
    .help = "each test's last turn: its messages (an example under tests/extension/)",
    .default_path = "-",
    .write = write_turns,
};

static const struct an_reporter turns_lean = {
    .name = "turns-lean",
    .help = "the same, from a row that says it never reads messages",
    .default_path = "-",
    .write = write_turns,
    .no_messages = true,
};

__attribute__((constructor)) static void register_turns(void)
{
    struct an_err err = AN_ERR_INIT;
    if (an_reporter_register(&turns, &err) || an_reporter_register(&turns_lean, &err)) {
        fprintf(stderr, "reporter_turns: %s\n", err.msg);
        abort();
    }
}
