/* .jsont compliance tests: a file read, pass 1 (jsont_pass1.c), parsed and
 * validated into the model: its top-level keys here, its steps in
 * jsont_steps.c and jsont_agui.c, its sandbox in jsont_sandbox.c. */
#include "load/jsont.h"
#include "load/jsont_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

/* The step kinds by their key, in enum an_jsont_step_kind order. */
static const char *const step_keys[AN_JSONT_STEP_KINDS] = {
    "newSession", "send", "expect", "forbid", "delayMs", "run", "http", "mcpHttp"};

const char *an_jsont_step_name(enum an_jsont_step_kind k)
{
    return k < AN_JSONT_STEP_KINDS ? step_keys[k] : "?";
}

const char *an_jsont_protocol_name(enum an_jsont_protocol p)
{
    return p == AN_JSONT_AGUI ? "agui" : "acp";
}

const char *an_jsont_msg_name(enum an_jsont_msg_kind k)
{
    static const char *const names[] = {"response", "notification", "clientRequest"};
    return names[k];
}

json_t *an_jsont_default_caps(void)
{
    return json_pack("{s:{s:b,s:b},s:b}", "fs", "readTextFile", 1, "writeTextFile", 1, "terminal",
                     1);
}

/* ---- validation into the model (pass 3) --------------------------------- */

static int fail_atv(struct jsont_ld *l, int code, const char *path, const char *fmt, va_list ap)
{
    struct an_loc loc;
    jsont_loc_at(l, path, &loc);
    an_failv(l->err, code, &loc, fmt, ap);
    return code;
}

int jsont_fail_at(struct jsont_ld *l, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_atv(l, code, path, fmt, ap);
    va_end(ap);
    return code;
}

/* A schema error at the step being read (l->at), or without a position. */
int jsont_bad(struct jsont_ld *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_atv(l, AN_ESCHEMA, l->at, fmt, ap);
    va_end(ap);
    return AN_ESCHEMA;
}

json_t *jsont_keep(struct jsont_ld *l, json_t *v)
{
    json_incref(v);
    an_arena_defer(&l->t->arena, (void (*)(void *))json_decref, v);
    return v;
}

/* An MCP revision: a date, YYYY-MM-DD. */
static bool is_revision_date(const char *s)
{
    for (size_t i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
            return false;
    return s[10] == '\0';
}

int jsont_load_strings(struct jsont_ld *l, json_t *v, const char *what, const char ***out,
                       size_t *n, bool nonempty)
{
    if (!json_is_array(v) || (nonempty && json_array_size(v) == 0))
        return jsont_bad(l, "'%s' must be a%s array of strings", what,
                         nonempty ? " non-empty" : "n");
    *n = json_array_size(v);
    *out = an_arena_alloc(&l->t->arena, (*n + 1) * sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        json_t *s = json_array_get(v, i);
        if (!json_is_string(s))
            return jsont_bad(l, "'%s[%zu]' must be a string", what, i);
        (*out)[i] = an_arena_strdup(&l->t->arena, json_string_value(s));
    }
    return AN_OK;
}

static int load_preconds(struct jsont_ld *l, json_t *pc)
{
    if (!pc)
        return AN_OK;
    if (!json_is_array(pc))
        return jsont_bad(l, "'preconditions' must be an array");
    struct an_jsont *t = l->t;
    t->npreconds = json_array_size(pc);
    t->preconds = an_arena_alloc(&t->arena, (t->npreconds + 1) * sizeof *t->preconds);
    for (size_t i = 0; i < t->npreconds; i++) {
        json_t *c = json_array_get(pc, i);
        const char *ac = an_json_str(c, "agentCap"), *cc = an_json_str(c, "cap");
        if (!json_is_object(c) || !!ac == !!cc)
            return jsont_bad(l,
                             "preconditions[%zu] needs exactly one of 'agentCap' or 'cap' "
                             "(a string)",
                             i);
        struct an_jsont_precond *p = &t->preconds[i];
        p->agent = ac != NULL;
        p->path = an_arena_strdup(&t->arena, ac ? ac : cc);
        if (!p->agent && strncmp(p->path, "client.", 7) != 0)
            return jsont_bad(l,
                             "preconditions[%zu]: 'cap' paths start with 'client.' (e.g. "
                             "client.fs.readTextFile), not '%s'",
                             i, p->path);
        json_t *mb = json_object_get(c, "mustBe");
        p->must_be = jsont_keep(l, mb ? mb : json_true());
    }
    return AN_OK;
}

static void merge_into(json_t *dst, json_t *src)
{
    const char *k;
    json_t *v;
    json_object_foreach(src, k, v)
    {
        json_t *d = json_object_get(dst, k);
        if (json_is_object(d) && json_is_object(v))
            merge_into(d, v);
        else
            json_object_set(dst, k, v);
    }
}

static int load_init(struct jsont_ld *l, json_t *init)
{
    struct an_jsont *t = l->t;
    json_t *caps = an_jsont_default_caps();
    t->client_caps = jsont_keep(l, caps);
    json_decref(caps);
    if (!init)
        return AN_OK;
    if (!json_is_object(init))
        return jsont_bad(l, "'init' must be an object");
    json_t *cc = json_object_get(init, "clientCapabilities");
    if (cc && !json_is_object(cc))
        return jsont_bad(l, "'init.clientCapabilities' must be an object");
    if (cc)
        merge_into(t->client_caps, cc);
    json_t *pp = json_object_get(init, "permissionPolicy");
    if (pp) {
        const char *s = json_string_value(pp);
        if (!s)
            return jsont_bad(l, "'init.permissionPolicy' must be a string");
        if (!strcmp(s, "yolo"))
            t->policy = AN_POLICY_YOLO;
        else if (!strcmp(s, "none"))
            t->policy = AN_POLICY_NONE;
        else if (!strcmp(s, "read"))
            t->policy = AN_POLICY_READ;
        else if (!strcmp(s, "write"))
            t->policy = AN_POLICY_WRITE;
        else
            return jsont_bad(
                l, "'init.permissionPolicy' must be none, read, write or yolo, not '%s'", s);
    }
    return AN_OK;
}

static bool known_var(const struct an_jsont *t, const char *name)
{
    static const char *const acp[] = {
        "sandbox", "protocolVersionDefault", "clientCapabilitiesDefault", "sessionId", "suiteDir",
        "copy", NULL};
    static const char *const agui[] = {"threadId", "runId", "messageId", "suiteDir", NULL};
    for (const char *const *b = t->protocol == AN_JSONT_AGUI ? agui : acp; *b; b++)
        if (!strcmp(name, *b))
            return true;
    if (!strncmp(name, "ENV.", 4) && name[4])
        return true;
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        if (st->kind == AN_JSONT_NEW_SESSION && !strcmp(st->capture, name))
            return true;
        for (size_t c = 0; c < st->ncaptures; c++)
            if (!strcmp(st->captures[c].var, name))
                return true;
    }
    return false;
}

static int build(struct jsont_ld *l, json_t *root)
{
    struct an_jsont *t = l->t;
    struct an_arena *a = &t->arena;
    if (!json_is_object(root))
        return jsont_bad(l, "a .jsont test must be a JSON object");
    const char *title = an_json_str(root, "title");
    if (!title || !*title)
        return jsont_bad(l, "'title' must be a non-empty string");
    t->title = an_arena_strdup(a, title);
    const char *desc = an_json_str(root, "description");
    if (!desc || !*desc)
        return jsont_bad(l, "'description' must be a non-empty string (what the test verifies)");
    t->description = an_arena_strdup(a, desc);
    json_t *area = json_object_get(root, "area");
    if (area && (!json_is_string(area) || !json_string_length(area)))
        return jsont_bad(l, "'area' must be a non-empty string");
    t->area = an_arena_strdup(a, area ? json_string_value(area) : title);
    const char *sev = an_json_str(root, "severity");
    if (!sev || (strcmp(sev, "required") && strcmp(sev, "optional")))
        return jsont_bad(l, "'severity' must be \"required\" or \"optional\"");
    t->required = !strcmp(sev, "required");
    if (jsont_load_strings(l, json_object_get(root, "docs"), "docs", &t->docs, &t->ndocs, true))
        return AN_ESCHEMA;
    json_t *reqs = json_object_get(root, "requirements");
    if (reqs &&
        jsont_load_strings(l, reqs, "requirements", &t->requirements, &t->nrequirements, false))
        return AN_ESCHEMA;
    json_t *bind = json_object_get(root, "bindings");
    if (bind && jsont_load_strings(l, bind, "bindings", &t->bindings, &t->nbindings, false))
        return AN_ESCHEMA;
    for (size_t i = 0; i < t->nbindings; i++)
        if (strcmp(t->bindings[i], "jsonrpc") && strcmp(t->bindings[i], "rest"))
            return jsont_bad(l, "'bindings' lists \"jsonrpc\" and \"rest\" (A2A), not '%s'",
                             t->bindings[i]);
    json_t *tr = json_object_get(root, "transports");
    if (tr && jsont_load_strings(l, tr, "transports", &t->transports, &t->ntransports, false))
        return AN_ESCHEMA;
    for (size_t i = 0; i < t->ntransports; i++)
        if (strcmp(t->transports[i], "stdio") && strcmp(t->transports[i], "http"))
            return jsont_bad(l, "'transports' lists \"stdio\" and \"http\" (MCP), not '%s'",
                             t->transports[i]);
    json_t *revs = json_object_get(root, "revisions");
    if (revs && jsont_load_strings(l, revs, "revisions", &t->revisions, &t->nrevisions, false))
        return AN_ESCHEMA;
    for (size_t i = 0; i < t->nrevisions; i++)
        if (strcmp(t->revisions[i], "0.3") && strcmp(t->revisions[i], "1.0") &&
            !is_revision_date(t->revisions[i]))
            return jsont_bad(l,
                             "'revisions' lists \"0.3\" and \"1.0\" (A2A), not '%s' (MCP: revision "
                             "dates, e.g. 2025-11-25)",
                             t->revisions[i]);
    int rc;
    if ((rc = load_preconds(l, json_object_get(root, "preconditions"))) ||
        (rc = jsont_load_files(l, json_object_get(root, "sandbox"))) ||
        (rc = load_init(l, json_object_get(root, "init"))))
        return rc;
    json_t *steps = json_object_get(root, "steps");
    if (!json_is_array(steps) || json_array_size(steps) == 0)
        return jsont_bad(l, "'steps' must be a non-empty array");
    t->nsteps = json_array_size(steps);
    t->steps = an_arena_alloc(a, t->nsteps * sizeof *t->steps);
    int first_acp = -1, first_agui = -1;
    for (size_t i = 0; i < t->nsteps; i++) {
        t->steps[i].index = i;
        snprintf(l->at, sizeof l->at, "steps.%zu", i);
        if ((rc = jsont_load_step(l, &t->steps[i], json_array_get(steps, i))))
            return rc;
        enum an_jsont_step_kind k = t->steps[i].kind;
        if (k == AN_JSONT_DELAY)
            continue;
        bool agui = k == AN_JSONT_AGUI_RUN || k == AN_JSONT_AGUI_HTTP;
        int *first = agui ? &first_agui : &first_acp;
        if (*first < 0)
            *first = (int)i;
        if (first_acp >= 0 && first_agui >= 0)
            return jsont_bad(l,
                             "steps[%zu]: '%s' is an %s step, but steps[%d] is an %s step ('%s'): "
                             "a test speaks one protocol",
                             i, an_jsont_step_name(k), agui ? "AG-UI" : "ACP",
                             agui ? first_acp : first_agui, agui ? "ACP" : "AG-UI",
                             an_jsont_step_name(t->steps[agui ? first_acp : first_agui].kind));
    }
    l->at[0] = '\0';
    if (first_agui >= 0) {
        t->protocol = AN_JSONT_AGUI;
        /* preconditions stay: an A2A test's are over the card's capabilities */
        static const char *const acp_only[] = {"sandbox", "init"};
        for (size_t k = 0; k < 2; k++)
            if (json_object_get(root, acp_only[k]))
                return jsont_fail_at(l, AN_ESCHEMA, acp_only[k],
                                     "'%s' belongs to ACP tests; an AG-UI or A2A test (steps "
                                     "'run', 'http') has none",
                                     acp_only[k]);
    }
    const struct an_jsont_step *s0 = &t->steps[0];
    /* a test that starts with an mcpHttp step makes its own sessions */
    t->self_init =
        (s0->kind == AN_JSONT_SEND && !strcmp(an_json_str(s0->frame, "method"), "initialize")) ||
        s0->kind == AN_JSONT_MCP_HTTP;
    return AN_OK;
}

static const char *base_id(struct an_arena *a, const char *file)
{
    const char *slash = strrchr(file, '/');
    const char *b = slash ? slash + 1 : file;
    size_t n = strlen(b);
    if (n > 6 && !strcmp(b + n - 6, ".jsont"))
        n -= 6;
    return an_arena_strndup(a, b, n);
}

int an_jsont_load_text(struct an_jsont **out, const char *file, const char *text, size_t len,
                       struct an_err *err)
{
    struct an_jsont *t = an_xcalloc(1, sizeof *t);
    struct pass1 p = {0};
    json_t *root = NULL;
    int rc;
    *out = NULL;
    t->file = an_arena_strdup(&t->arena, file);
    t->id = base_id(&t->arena, file);
    struct jsont_ld l = {.t = t, .file = t->file, .err = err, .src = text};
    if (memchr(text, '\0', len)) {
        struct an_loc loc = {t->file, 0, 0};
        rc = an_fail(err, AN_EPARSE, &loc, "file holds a NUL byte");
        goto done;
    }
    /* Pass 1 with the default capabilities, parse, then again with the
     * test's own when it overrides them and uses ${clientCapabilitiesDefault}. */
    json_t *defcaps = an_jsont_default_caps();
    char *caps_txt = an_json_compact(defcaps);
    json_decref(defcaps);
    rc = jsont_pass1_run(&p, t->file, text, len, caps_txt, err);
    free(caps_txt);
    if (rc)
        goto done;
    if (!(root = jsont_pass1_parse(&p, t->file, text, err))) {
        rc = AN_EPARSE;
        goto done;
    }
    json_t *cc = json_object_get(json_object_get(root, "init"), "clientCapabilities");
    if (p.uses_caps && json_is_object(cc)) {
        json_t *merged = an_jsont_default_caps();
        merge_into(merged, cc);
        char *mt = an_json_compact(merged);
        json_decref(merged);
        /* the test's own capabilities: what is parsed (and located) now */
        jsont_pass1_release(&p);
        rc = jsont_pass1_run(&p, t->file, text, len, mt, err);
        free(mt);
        json_decref(root);
        root = rc ? NULL : jsont_pass1_parse(&p, t->file, text, err);
        if (!root) {
            rc = rc ? rc : AN_EPARSE;
            goto done;
        }
    }
    l.pass = &p;
    if ((rc = build(&l, root)))
        goto done;
    for (size_t i = 0; i < p.nrefs; i++) {
        if (!known_var(t, p.refs[i].name)) {
            struct an_loc loc;
            jsont_src_loc(text, p.refs[i].src, t->file, &loc);
            rc = an_fail(err, AN_EVAR, &loc,
                         "unknown variable '%s' (built-ins: %s; or a name a step captures)",
                         p.refs[i].name,
                         t->protocol == AN_JSONT_AGUI
                             ? "threadId, runId, messageId, suiteDir"
                             : "sandbox, protocolVersionDefault, clientCapabilitiesDefault, "
                               "sessionId, suiteDir, copy");
            goto done;
        }
    }
done:
    json_decref(root);
    jsont_pass1_release(&p);
    if (rc)
        an_jsont_free(t);
    else
        *out = t;
    return rc;
}

int an_jsont_load(struct an_jsont **out, const char *file, struct an_err *err)
{
    *out = NULL;
    FILE *fp = fopen(file, "rb");
    if (!fp)
        return an_fail(err, errno == ENOENT ? AN_ENOTFOUND : AN_EIO, NULL, "cannot read '%s': %s",
                       file, strerror(errno));
    struct an_buf b;
    an_buf_init(&b, AN_JSONT_MAX_BYTES);
    char chunk[8192];
    size_t n;
    int rc = AN_OK;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (an_buf_append(&b, chunk, n)) {
            rc = an_fail(err, AN_ELIMIT, NULL, "'%s' is larger than %zu bytes", file,
                         AN_JSONT_MAX_BYTES);
            break;
        }
    }
    if (!rc && ferror(fp))
        rc = an_fail(err, AN_EIO, NULL, "cannot read '%s': %s", file, strerror(errno));
    fclose(fp);
    if (!rc)
        rc = an_jsont_load_text(out, file, an_buf_cstr(&b), b.len, err);
    an_buf_release(&b);
    return rc;
}

void an_jsont_free(struct an_jsont *t)
{
    if (!t)
        return;
    an_arena_release(&t->arena);
    free(t);
}
