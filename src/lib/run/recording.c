/* Reading a recording directory back (ananke/replay.h, docs/record.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ananke/record.h"
#include "ananke/result.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/nofollow.h"
#include "run/replay_int.h"

void an_recording_free(struct an_recording *r)
{
    if (!r)
        return;
    free((char *)r->info.dir);
    json_decref(r->run);
    an_run_result_release(&r->results);
    free(r->used);
    free(r);
}

const struct an_recording_info *an_recording_info(const struct an_recording *r)
{
    return &r->info;
}

static int not_a_recording(struct an_err *err, const char *dir, const char *why)
{
    return an_fail(err, AN_ESCHEMA, NULL,
                   "'%s' is not an ananke recording: %s (recordings are made with 'ananke run "
                   "--record DIR')",
                   dir, why);
}

int an_recording_open(struct an_recording **out, const char *dir, struct an_err *err)
{
    struct an_recording *r = an_xcalloc(1, sizeof *r);
    struct an_buf path = AN_BUF_INIT;
    struct stat st;
    int rc = AN_OK;
    *out = NULL;
    r->info.dir = an_xstrdup(dir);
    if (stat(dir, &st) != 0) {
        rc = an_fail(err, AN_ENOTFOUND, NULL, "cannot read the recording '%s': %s", dir,
                     strerror(errno));
        goto done;
    }
    if (!S_ISDIR(st.st_mode)) {
        rc = not_a_recording(err, dir, "it is not a directory");
        goto done;
    }
    an_buf_printf(&path, "%s/run.json", dir);
    /* a recording is read without following links (core/nofollow.h) */
    if (an_nf_kind(dir, "run.json") == AN_NF_ABSENT) {
        rc = not_a_recording(err, dir, "it has no run.json");
        goto done;
    }
    r->run = an_nf_json(dir, "run.json", 0, 0, err);
    if (!r->run) {
        rc = err->code;
        if (rc == AN_EPARSE) {
            char why[AN_ERR_MSG_MAX];
            snprintf(why, sizeof why, "%s", err->msg);
            struct an_loc loc = {an_buf_cstr(&path), err->line, err->col};
            rc = an_fail(err, AN_EPARSE, &loc, "not an ananke recording's run.json: %s", why);
        }
        goto done;
    }
    const char *format = an_json_str(r->run, "format");
    if (!format) {
        rc = not_a_recording(err, dir, "its run.json has no \"format\"");
        goto done;
    }
    if (strcmp(format, AN_RECORD_FORMAT)) {
        struct an_loc loc = {an_buf_cstr(&path), 0, 0};
        rc = an_fail(err, AN_ESCHEMA, &loc,
                     "the recording's format is '%s'; this ananke reads '%s'", format,
                     AN_RECORD_FORMAT);
        goto done;
    }
    r->info.run_id = an_json_str(r->run, "run_id");
    r->info.started_at = an_json_str(r->run, "started_at");
    json_t *target = json_object_get(r->run, "target");
    r->info.target_type = an_json_str(target, "type");
    r->info.endpoint = an_json_str(target, "endpoint");
    if (!r->info.endpoint)
        r->info.endpoint = an_json_str(target, "command");
    r->info.complete = json_is_true(json_object_get(r->run, "complete"));
    an_buf_reset(&path);
    an_buf_printf(&path, "%s/results.json", dir);
    if (an_nf_kind(dir, "results.json") == AN_NF_ABSENT) {
        rc = an_fail(err, AN_ESCHEMA, NULL,
                     "'%s' is an incomplete recording: it has no results.json (the run was "
                     "stopped, or writing it failed, before the end)",
                     dir);
        goto done;
    }
    if ((rc = an_run_result_load(&r->results, an_buf_cstr(&path), err)))
        goto done;
    r->info.ntests = r->results.ntests;
    r->used = an_xcalloc(r->results.ntests + 1, sizeof *r->used);
done:
    an_buf_release(&path);
    if (rc) {
        an_recording_free(r);
        return rc;
    }
    *out = r;
    return AN_OK;
}
