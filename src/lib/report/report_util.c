#include "report/report_util.h"

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/json.h"

size_t an_rpt_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t c;
    if (!n)
        return 0;
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    if ((p[0] & 0xE0) == 0xC0)
        len = 2, c = p[0] & 0x1Fu;
    else if ((p[0] & 0xF0) == 0xE0)
        len = 3, c = p[0] & 0x0Fu;
    else if ((p[0] & 0xF8) == 0xF0)
        len = 4, c = p[0] & 0x07u;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3Fu);
    }
    if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
        c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

void an_rpt_escape(struct an_buf *b, const char *s, an_rpt_esc_fn *esc, bool attr)
{
    size_t n = s ? strlen(s) : 0, i = 0;
    while (i < n) {
        uint32_t c = 0;
        size_t k = an_rpt_utf8_next(s + i, n - i, &c);
        if (!k) {
            an_buf_append(b, "\xEF\xBF\xBD", 3);
            i++;
            continue;
        }
        esc(b, c, s + i, k, attr);
        i += k;
    }
}

/* Code points a terminal acts on rather than shows: C0/C1 controls and DEL
 * (cursor moves, colour, OSC titles), line/paragraph separators, and the
 * bidi overrides that can make text read differently from its bytes. */
/* One character for an_rpt_xml(). */
static void xml_esc(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr, bool apos)
{
    switch (c) {
    case '&':
        an_buf_puts(b, "&amp;");
        break;
    case '<':
        an_buf_puts(b, "&lt;");
        break;
    case '>':
        an_buf_puts(b, "&gt;");
        break;
    case '"':
        an_buf_puts(b, "&quot;");
        break;
    case '\'':
        if (apos)
            an_buf_puts(b, "&apos;");
        else
            an_buf_append(b, s, k);
        break;
    case '\t':
    case '\n':
    case '\r':
        if (attr)
            an_buf_printf(b, "&#%u;", (unsigned)c);
        else
            an_buf_putc(b, (char)c);
        break;
    default:
        if (c >= 0x20 && c != 0xFFFE && c != 0xFFFF)
            an_buf_append(b, s, k);
        break;
    }
}

/* an_rpt_escape() has one switch (attr); apos picks one of these two. */
static void xml_esc_apos(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr)
{
    xml_esc(b, c, s, k, attr, true);
}

static void xml_esc_keep_apos(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr)
{
    xml_esc(b, c, s, k, attr, false);
}

void an_rpt_xml(struct an_buf *b, const char *s, bool attr, bool apos)
{
    an_rpt_escape(b, s, apos ? xml_esc_apos : xml_esc_keep_apos, attr);
}

const char *an_rpt_case_name(const struct an_test_result *t)
{
    static const char sep[] = " \xE2\x80\x94 "; /* " — ", as the JSONL loader joins them */
    if (!t->id || !t->name)
        return NULL;
    size_t n = strlen(t->id);
    if (!strcmp(t->name, t->id))
        return NULL;
    if (!strncmp(t->name, t->id, n) && !strncmp(t->name + n, sep, sizeof sep - 1))
        return t->name + n + sizeof sep - 1;
    return t->name; /* a result from elsewhere (a merged file) named otherwise */
}

void an_rpt_title(struct an_buf *b, const struct an_test_result *t)
{
    if (!t->id) {
        an_buf_puts(b, t->name ? t->name : "(unnamed)");
        return;
    }
    const char *name = an_rpt_case_name(t);
    an_buf_printf(b, "[%s]", t->id);
    if (name) {
        an_buf_putc(b, ' ');
        an_buf_puts(b, name);
    }
}

const char *an_rpt_iso8601(char *buf, size_t cap, int64_t unix_ms)
{
    struct tm tm;
    time_t t = (time_t)(unix_ms / 1000);
    char day[32];
    buf[0] = '\0';
    if (unix_ms > 0 && gmtime_r(&t, &tm) && strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(buf, cap, "%s.%03dZ", day, (int)(unix_ms % 1000));
    return buf;
}

void an_rpt_html(struct an_buf *b, const char *s, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ent;
        switch (s[i]) {
        case '&':
            ent = "&amp;";
            break;
        case '<':
            ent = "&lt;";
            break;
        case '>':
            ent = "&gt;";
            break;
        case '"':
            ent = "&quot;";
            break;
        case '\'':
            ent = "&#39;";
            break;
        default:
            continue;
        }
        an_buf_append(b, s + from, i - from);
        an_buf_puts(b, ent);
        from = i + 1;
    }
    an_buf_append(b, s + from, n - from);
}

double an_rpt_secs(int64_t ms)
{
    return (double)(ms > 0 ? ms : 0) / 1000.0;
}

static bool is_hostile(uint32_t c)
{
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

void an_rpt_text(struct an_buf *b, const char *s, size_t n, size_t cut, const char *nl_indent,
                 unsigned flags)
{
    size_t limit = (cut && cut < n) ? cut : n;
    size_t i = 0;
    /* At the start of a line we begin (leading blanks skipped), "::" would
     * be a GitHub Actions workflow command, and "##[" is one anywhere in a
     * line (the runner's legacy syntax): a CI log shows this text. */
    bool bol = !(flags & AN_RPT_QUOTE);
    if (flags & AN_RPT_QUOTE)
        an_buf_putc(b, '"');
    while (i < n) {
        uint32_t c = 0;
        size_t k = an_rpt_utf8_next(s + i, n - i, &c);
        if (i + (k ? k : 1) > limit)
            break;
        if (!k) {
            an_buf_append(b, "\xEF\xBF\xBD", 3);
            i++;
            bol = false;
            continue;
        }
        if (bol && c == ':' && i + 1 < n && s[i + 1] == ':') {
            an_buf_puts(b, "\\u003a");
        } else if (c == '#' && i + 2 < n && i + 2 <= limit && s[i + 1] == '#' && s[i + 2] == '[') {
            an_buf_puts(b, "#\\u0023");
            k = 2; /* the '[' follows as it is */
        } else if (!is_hostile(c)) {
            an_buf_append(b, s + i, k);
        } else if (c == '\n' && nl_indent) {
            an_buf_putc(b, '\n');
            an_buf_puts(b, nl_indent);
            i += k;
            bol = true;
            continue;
        } else if (c == '\r' && nl_indent && i + 1 < n && s[i + 1] == '\n') {
            /* CRLF from an HTTP body: the \n alone already breaks the line */
        } else if (c == '\t' && nl_indent) {
            an_buf_putc(b, '\t');
        } else if (c == '\n') {
            an_buf_puts(b, "\\n");
        } else if (c == '\t') {
            an_buf_puts(b, "\\t");
        } else if (c == '\r') {
            an_buf_puts(b, "\\r");
        } else {
            an_buf_printf(b, "\\u%04x", (unsigned)c);
        }
        if (!(bol && (c == ' ' || c == '\t')))
            bol = false;
        i += k;
    }
    if (i < n)
        an_buf_puts(b, "\xE2\x80\xA6"); /* … */
    if (flags & AN_RPT_QUOTE)
        an_buf_putc(b, '"');
    if (i < n)
        an_buf_printf(b, " (+%zu bytes)", n - i);
}

void an_rpt_str(struct an_buf *b, const char *s, size_t cut, const char *nl_indent,
                unsigned flags)
{
    if (s)
        an_rpt_text(b, s, strlen(s), cut, nl_indent, flags);
    else if (flags & AN_RPT_QUOTE)
        an_buf_puts(b, "\"\"");
}

void an_rpt_json(struct an_buf *b, const json_t *v, size_t cut)
{
    char *s = an_json_compact(v);
    an_rpt_text(b, s, strlen(s), cut, NULL, 0);
    free(s);
}

const char *an_rpt_ms(char *buf, size_t cap, int64_t ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < 10000)
        snprintf(buf, cap, "%lldms", (long long)ms);
    else
        snprintf(buf, cap, "%.1fs", (double)ms / 1000.0);
    return buf;
}

static void offset(struct an_buf *b, int64_t at, int64_t base)
{
    char d[32];
    an_buf_printf(b, "+%s ", an_rpt_ms(d, sizeof d, at - base));
}

void an_rpt_turn_evidence(struct an_buf *b, const struct an_transcript *t, size_t turn,
                          const char *indent, size_t cut, bool timing)
{
    const struct an_turn_rec *r = &t->turns[turn];
    an_buf_puts(b, indent);
    if (!r->ncalls)
        an_buf_puts(b, "calls: none\n");
    else
        an_buf_puts(b, "calls:\n");
    for (size_t i = 0; i < r->ncalls && r->first_call + i < t->ncalls; i++) {
        const struct an_tool_call *c = &t->calls[r->first_call + i];
        an_buf_puts(b, indent);
        an_buf_puts(b, "  ");
        if (timing && c->start_ms)
            offset(b, c->start_ms, r->start_ms);
        an_rpt_str(b, c->name ? c->name : "?", cut, NULL, 0);
        an_buf_putc(b, '(');
        const json_t *args = an_tool_call_args(c);
        if (args)
            an_rpt_json(b, args, cut);
        else
            an_rpt_str(b, c->args_text, cut, NULL, 0);
        an_buf_puts(b, ") \xE2\x86\x92 "); /* → */
        if (timing && c->result_ms)
            offset(b, c->result_ms, r->start_ms);
        if (c->result)
            an_rpt_json(b, c->result, cut);
        else
            an_buf_puts(b, "(no result)");
        if (c->args_error) {
            an_buf_puts(b, " [args not JSON: ");
            an_rpt_str(b, c->args_error, cut, NULL, 0);
            an_buf_putc(b, ']');
        }
        an_buf_putc(b, '\n');
    }
    an_buf_puts(b, indent);
    if (r->text && r->text[0]) {
        an_buf_puts(b, "text: ");
        an_rpt_str(b, r->text, cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    } else {
        an_buf_puts(b, "text: none\n");
    }
}

void an_rpt_turn_block(struct an_buf *b, const struct an_transcript *t, size_t turn,
                       const char *indent, size_t cut)
{
    const struct an_turn_rec *r = &t->turns[turn];
    char d[32];
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(b, "%sturn %zu %s", indent, turn + 1, r->kind ? r->kind : "user");
    if (r->input) {
        an_buf_puts(b, ": ");
        an_rpt_str(b, r->input, cut, NULL, AN_RPT_QUOTE);
    }
    if (r->status == AN_TURN_NOT_RUN) {
        an_buf_puts(b, " not run\n");
        return;
    }
    an_buf_printf(b, " (%s)\n", an_rpt_ms(d, sizeof d, r->end_ms - r->start_ms));
    an_buf_printf(&sub, "%s  ", indent);
    an_rpt_turn_evidence(b, t, turn, an_buf_cstr(&sub), cut, true);
    for (size_t i = 0; i < r->nwarnings; i++) {
        an_buf_printf(b, "%s  warning: ", indent);
        an_rpt_str(b, r->warnings[i], cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
    for (size_t i = 0; i < r->retries; i++) {
        an_buf_printf(b, "%s  retry: ", indent);
        an_rpt_str(b, r->retry_log[i], cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
    if (r->status == AN_TURN_ERROR) {
        an_buf_printf(b, "%s  error: ", indent);
        an_buf_puts(&sub, "  ");
        an_rpt_str(b, r->error ? r->error : "turn failed", cut * 4, an_buf_cstr(&sub), 0);
        an_buf_putc(b, '\n');
    }
    an_buf_release(&sub);
}

void an_rpt_not_run(struct an_buf *b, const struct an_transcript *t, const char *indent)
{
    size_t i = 0;
    while (i < t->nturns) {
        if (t->turns[i].status != AN_TURN_NOT_RUN) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < t->nturns && t->turns[j + 1].status == AN_TURN_NOT_RUN)
            j++;
        if (j == i)
            an_buf_printf(b, "%sturn %zu not run\n", indent, i + 1);
        else
            an_buf_printf(b, "%sturns %zu\xE2\x80\x93%zu not run\n", indent, i + 1, j + 1);
        i = j + 1;
    }
}

int an_rpt_mkdir_p(const char *path, size_t n, struct an_err *err)
{
    char *b = an_xstrndup(path, n);
    int rc = 0;
    for (size_t i = 1; i <= n && !rc; i++) {
        if (b[i] != '/' && b[i] != '\0')
            continue;
        char c = b[i];
        b[i] = '\0';
        if (mkdir(b, 0777) && errno != EEXIST)
            rc = an_fail(err, AN_EIO, NULL, "cannot create directory '%s': %s", b,
                         strerror(errno));
        b[i] = c;
    }
    free(b);
    return rc;
}

int an_rpt_open(struct an_rpt_file *f, const char *path, struct an_err *err)
{
    memset(f, 0, sizeof *f);
    if (!path || !strcmp(path, "-")) {
        f->fp = stdout;
        return AN_OK;
    }
    f->path = path;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    /* its directory is made, as html:DIR's is */
    struct an_err merr = AN_ERR_INIT;
    if (dirlen > 1 && an_rpt_mkdir_p(path, dirlen - 1, &merr))
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path, merr.msg);
    struct an_buf tmp = AN_BUF_INIT;
    int fd = -1, e = 0;
    /* open(O_EXCL) with our own name rather than mkstemp(): mkstemp makes
     * the file 0600, and a report should get the usual umask permissions. */
    for (unsigned n = 0; n < 100 && fd < 0; n++) {
        an_buf_reset(&tmp);
        an_buf_append(&tmp, path, dirlen);
        an_buf_printf(&tmp, ".%s.tmp-%ld-%u", path + dirlen, (long)getpid(), n);
        fd = open(an_buf_cstr(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = errno;
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0) {
        an_buf_release(&tmp);
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path, strerror(e));
    }
    f->fp = fdopen(fd, "w");
    if (!f->fp) {
        e = errno;
        close(fd);
        unlink(an_buf_cstr(&tmp));
        an_buf_release(&tmp);
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path, strerror(e));
    }
    f->tmp = an_buf_detach(&tmp, NULL);
    return AN_OK;
}

int an_rpt_commit(struct an_rpt_file *f, struct an_err *err)
{
    int e = 0;
    if (!f->tmp) {
        if (fflush(f->fp) != 0 || ferror(f->fp))
            e = errno ? errno : EIO;
        f->fp = NULL;
        if (e)
            return an_fail(err, AN_EIO, NULL, "cannot write report to standard output: %s",
                           strerror(e));
        return AN_OK;
    }
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        e = errno ? errno : EIO;
    /* fsync so a power loss after the rename cannot leave an empty file
     * under the final name */
    if (!e && fsync(fileno(f->fp)) != 0)
        e = errno;
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    f->fp = NULL;
    if (!e && rename(f->tmp, f->path) != 0)
        e = errno;
    if (e)
        unlink(f->tmp);
    free(f->tmp);
    f->tmp = NULL;
    if (e)
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", f->path, strerror(e));
    return AN_OK;
}

int an_rpt_write(const char *path, const struct an_buf *b, struct an_err *err)
{
    struct an_rpt_file f;
    int rc = an_rpt_open(&f, path, err);
    if (rc)
        return rc;
    /* a short write sets the stream's error flag; commit reports it */
    (void)fwrite(b->data ? b->data : "", 1, b->len, f.fp);
    return an_rpt_commit(&f, err);
}

void an_rpt_abort(struct an_rpt_file *f)
{
    if (f->tmp) {
        if (f->fp)
            fclose(f->fp);
        unlink(f->tmp);
        free(f->tmp);
    }
    memset(f, 0, sizeof *f);
}

void an_rpt_judgements(struct an_buf *b, const struct an_test_result *t, const char *indent,
                       size_t cut, bool full)
{
    char d[32];
    for (size_t i = 0; i < t->judgements.n; i++) {
        const struct an_judgement *g = &t->judgements.v[i];
        an_buf_printf(b, "%sjudge '", indent);
        an_rpt_str(b, g->agent ? g->agent : "", cut, NULL, 0);
        an_buf_printf(b, "' %s (%s)",
                      g->verdict > 0 ? "passed" : g->verdict == 0 ? "failed" : "gave no verdict",
                      an_rpt_ms(d, sizeof d, g->duration_ms));
        if (g->turn >= 0)
            an_buf_printf(b, " on turn %d", g->turn + 1);
        if (g->reason) {
            an_buf_puts(b, ": ");
            an_rpt_str(b, g->reason, cut, NULL, 0);
        }
        an_buf_putc(b, '\n');
        if (!full)
            continue;
        an_buf_printf(b, "%s  shown: ", indent);
        an_rpt_str(b, g->shown ? g->shown : "", cut ? cut * 4 : 0, NULL, 0);
        an_buf_printf(b, "\n%s  answer: ", indent);
        an_rpt_str(b, g->answer ? g->answer : "(nothing)", cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
}

/* --- dynamic tests ------------------------------------------------------ */

size_t an_rpt_turns_run(const struct an_transcript *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nturns; i++)
        n += t->turns[i].status != AN_TURN_NOT_RUN;
    return n;
}

size_t an_rpt_dyn_reached(const struct an_dynamic_result *d)
{
    size_t n = 0;
    for (size_t i = 0; d && i < d->ncheckpoints; i++)
        n += d->checkpoints[i].reached_at_turn >= 0;
    return n;
}

const char *an_rpt_dyn_end(enum an_dyn_end e)
{
    switch (e) {
    case AN_DYN_ALL_REACHED:
        return "all reached";
    case AN_DYN_GOAL:
        return "goal achieved";
    case AN_DYN_MAX_TURNS:
        return "max turns";
    case AN_DYN_TIMEOUT:
        return "timeout";
    case AN_DYN_BROKEN:
        return "error";
    case AN_DYN_NONE:
        break;
    }
    return "not ended";
}

/* "ID (DESCRIPTION)", or "ID" alone. */
static void checkpoint_name(struct an_buf *b, const struct an_checkpoint_result *c, size_t cut)
{
    an_rpt_str(b, c->id ? c->id : "?", cut, NULL, 0);
    if (c->description && c->description[0]) {
        an_buf_puts(b, " (");
        an_rpt_str(b, c->description, cut, NULL, 0);
        an_buf_putc(b, ')');
    }
}

/* "; LABEL: a, b" for the unreached checkpoints whose `required` is `req`. */
static void unreached(struct an_buf *b, const struct an_dynamic_result *d, bool req,
                      const char *label, size_t cut)
{
    bool first = true;
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        if (c->reached_at_turn >= 0 || c->required != req)
            continue;
        an_buf_puts(b, first ? "; " : ", ");
        if (first)
            an_buf_printf(b, "%s: ", label);
        first = false;
        an_rpt_str(b, c->id ? c->id : "?", cut, NULL, 0);
        if (req && c->missed && c->missed[0]) { /* the check that failed, and why */
            an_buf_puts(b, " (");
            an_rpt_str(b, c->missed, cut, NULL, 0);
            an_buf_putc(b, ')');
        }
    }
}

void an_rpt_dyn_outcome(struct an_buf *b, const struct an_test_result *t, size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    size_t turns = an_rpt_turns_run(&t->transcript);
    an_buf_printf(b, "%zu turn%s, %zu/%zu checkpoint%s (%s)", turns, turns == 1 ? "" : "s",
                  an_rpt_dyn_reached(d), d->ncheckpoints, d->ncheckpoints == 1 ? "" : "s",
                  an_rpt_dyn_end(d->end));
    unreached(b, d, true, "missing", cut);
    unreached(b, d, false, "optional, not reached", cut);
}

void an_rpt_dyn_simulator(struct an_buf *b, const struct an_test_result *t, const char *indent,
                          size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    an_buf_printf(b, "%ssimulator: ", indent);
    an_rpt_str(b, d->simulator ? d->simulator : "(unknown)", cut, NULL, 0);
    if (d->seed >= 0)
        an_buf_printf(b, " (seed %lld)", (long long)d->seed);
    an_buf_putc(b, '\n');
}

static void evidence(struct an_buf *b, const struct an_checkpoint_result *c, const char *indent,
                     size_t cut)
{
    if (!c->evidence || !c->evidence[0])
        return;
    an_buf_printf(b, "%s  evidence: ", indent);
    an_rpt_str(b, c->evidence, cut, NULL, 0);
    an_buf_putc(b, '\n');
}

void an_rpt_dyn_turn(struct an_buf *b, const struct an_test_result *t, size_t turn,
                     const char *indent, size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        if (c->reached_at_turn < 0 || (size_t)c->reached_at_turn != turn)
            continue;
        an_buf_printf(b, "%sreached: ", indent);
        checkpoint_name(b, c, cut);
        an_buf_putc(b, '\n');
        evidence(b, c, indent, cut);
    }
    if (turn < d->nreasoning && d->reasoning[turn]) {
        an_buf_printf(b, "%ssimulator reasoning: ", indent);
        an_rpt_str(b, d->reasoning[turn], cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    }
}

void an_rpt_dyn_after(struct an_buf *b, const struct an_test_result *t, const char *indent,
                      size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    size_t n = t->transcript.nturns;
    for (size_t i = n; d && i < d->nreasoning; i++) {
        if (!d->reasoning[i])
            continue;
        an_buf_printf(b, "%ssimulator after turn %zu: ", indent, n);
        an_rpt_str(b, d->reasoning[i], cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    }
}

void an_rpt_dyn_checkpoints(struct an_buf *b, const struct an_test_result *t, const char *indent,
                            size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    an_buf_printf(b, "%scheckpoints:%s\n", indent, d->ncheckpoints ? "" : " none");
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(&sub, "%s  ", indent);
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        an_buf_printf(b, "%s  ", indent);
        checkpoint_name(b, c, cut);
        if (c->reached_at_turn >= 0)
            an_buf_printf(b, ": reached at turn %d%s\n", c->reached_at_turn + 1,
                          c->required ? "" : " (optional)");
        else
            an_buf_puts(b, c->required ? ": missing\n" : ": not reached (optional)\n");
        evidence(b, c, an_buf_cstr(&sub), cut);
        if (c->reached_at_turn < 0 && c->missed && c->missed[0]) {
            an_buf_printf(b, "%s    failed: ", indent);
            an_rpt_str(b, c->missed, cut, NULL, 0);
            an_buf_putc(b, '\n');
        }
    }
    an_buf_release(&sub);
}

void an_rpt_dyn_text(struct an_buf *b, const struct an_test_result *t, const char *indent,
                     size_t cut)
{
    if (!t->dyn)
        return;
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(&sub, "%s  ", indent);
    an_rpt_dyn_simulator(b, t, indent, cut);
    an_buf_puts(b, indent);
    an_rpt_dyn_outcome(b, t, cut);
    an_buf_putc(b, '\n');
    for (size_t i = 0; i < t->transcript.nturns; i++) {
        an_rpt_turn_block(b, &t->transcript, i, indent, cut);
        an_rpt_dyn_turn(b, t, i, an_buf_cstr(&sub), cut);
    }
    an_rpt_dyn_after(b, t, indent, cut);
    an_rpt_dyn_checkpoints(b, t, indent, cut);
    an_buf_release(&sub);
}
