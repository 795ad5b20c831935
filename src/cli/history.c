/* The run history for the commands that run tests (run, replay, comply):
 * a recorder made before the run, told of each test as it finishes, and
 * written once the run is over. A history that cannot be written is one
 * warning; the run keeps its own exit code (docs/history.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/clock.h"
#include "ananke/comply.h"
#include "ananke/redact.h"
#include "cli.h"

void cli_history_start(struct cli_history *h, const char *flag, bool off)
{
    *h = (struct cli_history){.flag = flag};
    bool def;
    char *p = an_history_path(flag, off, ".", &def);
    if (p) /* on: the path is known once the project is */
        h->rec = an_history_rec_new();
    free(p);
}

void cli_history_prepare(struct cli_history *h, const char *project_dir)
{
    if (!h->rec)
        return;
    bool def;
    char *path = an_history_path(h->flag, false, project_dir, &def);
    if (path)
        an_history_rec_prepare(h->rec, path, def);
    free(path);
}

void cli_history_note(struct cli_history *h, const struct an_test_result *t)
{
    if (h && h->rec)
        an_history_rec_note(h->rec, t);
}

/* "ananke ARG..." with the run's secrets replaced (malloc'd). */
static char *command_line(int argc, char **argv, const struct an_redactor *red)
{
    size_t n = sizeof "ananke";
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    char *s = an_xmalloc(n), *p = s;
    memcpy(p, "ananke", 6);
    p += 6;
    for (int i = 0; i < argc; i++) {
        size_t k = strlen(argv[i]);
        *p++ = ' ';
        memcpy(p, argv[i], k);
        p += k;
    }
    *p = '\0';
    char *r = red ? an_redact_str(red, s) : NULL;
    if (r) {
        free(s);
        return r;
    }
    return s;
}

void cli_history_finish(struct cli_history *h, const struct cli_history_run *run,
                        const struct an_run_result *res)
{
    if (!h->rec)
        return;
    bool def;
    char *path = an_history_path(h->flag, false, run->project_dir, &def);
    struct an_redactor *red = NULL;
    if (run->suite)
        red = an_redactor_for_suite(run->suite, run->redact, run->nredact);
    else {
        red = an_redactor_new();
        for (size_t i = 0; i < run->nredact; i++)
            an_redactor_add_regex(red, run->redact[i], NULL);
    }
    char *cmd = command_line(run->argc, run->argv, red);
    an_redactor_free(red);
    struct an_history_run_info info = {
        .kind = run->kind,
        .command = cmd,
        .project_dir = run->project_dir,
        .config_path = run->suite ? run->suite->config.path : NULL,
        .config_sum = run->suite ? run->suite->config.digest : NULL,
        .recording = run->recording,
        .max_text_bytes = run->suite ? run->suite->config.max_history_text_bytes : 0,
        .parts = run->parts,
        .nparts = run->nparts,
    };
    /* the recording as an absolute path: the history is read from elsewhere */
    char *rec_abs = run->recording ? realpath(run->recording, NULL) : NULL;
    info.recording = rec_abs ? rec_abs : run->recording;
    struct an_err err = AN_ERR_INIT;
    int64_t id = 0;
    if (path && an_history_rec_write(h->rec, path, def, &info, res, &id, &err)) {
        fflush(stdout);
        fprintf(stderr, "ananke: warning: history %s (this run is not in it)\n", err.msg);
    }
    free(rec_abs);
    free(cmd);
    free(path);
    an_history_rec_free(h->rec);
    h->rec = NULL;
}

void cli_history_release(struct cli_history *h)
{
    an_history_rec_free(h->rec);
    h->rec = NULL;
}

void cli_history_comply(struct cli_history *h, int argc, char **argv, const char *const *redact,
                        size_t nredact, const struct an_comply_result *cr)
{
    if (!h->rec)
        return;
    struct an_run_result res = {0};
    res.start_ms = cr->started_ms;
    res.end_ms = cr->started_ms + cr->duration_ms;
    for (size_t i = 0; i < cr->nagents; i++) {
        const struct an_comply_agent *ag = &cr->agents[i];
        for (size_t k = 0; k < ag->ntests; k++) {
            const struct an_comply_test *ct = &ag->tests[k];
            struct an_test_result *t = an_run_result_add(&res);
            size_t n = strlen(ag->name ? ag->name : "") + strlen(ct->id ? ct->id : "") + 2;
            t->name = an_xmalloc(n);
            snprintf(t->name, n, "%s/%s", ag->name ? ag->name : "", ct->id ? ct->id : "");
            /* a stale expected failure fails the run; an expected one does not */
            bool failed = ct->status == AN_COMPLY_FAIL || ct->status == AN_COMPLY_STALE;
            t->status = ct->status == AN_COMPLY_PASS ? AN_STATUS_PASS
                        : failed                     ? AN_STATUS_FAIL
                                                     : AN_STATUS_SKIP;
            t->start_ms = res.start_ms;
            t->end_ms = res.start_ms + ct->duration_ms;
            t->error_turn = -1;
            for (size_t u = 0; u < ct->nunmet; u++)
                an_findings_add(&t->findings, "comply.unmet", ct->unmet[u].step, NULL, 0, 0,
                                ct->unmet[u].message, ct->unmet[u].expected, ct->unmet[u].closest,
                                NULL);
        }
    }
    char *cwd = realpath(".", NULL);
    struct cli_history_run hr = {.kind = "comply",
                                 .argc = argc,
                                 .argv = argv,
                                 .project_dir = cwd ? cwd : ".",
                                 .redact = redact,
                                 .nredact = nredact};
    cli_history_finish(h, &hr, &res);
    free(cwd);
    an_run_result_release(&res);
}
