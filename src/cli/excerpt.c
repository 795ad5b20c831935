/* Load errors as hurl and rustc show them: the first line is
 * "file:line:col: message" (what scripts and editors parse), then the
 * offending line of the file with a caret under the column:
 *
 *     a.test.yaml:5:5: unknown key 'asert' in a turn (did you mean 'assert'?)
 *       5 |     asert:
 *         |     ^
 *
 * The same on a terminal and in a pipe. The line is read again from the
 * file (or from the in-memory cases the error names), shown safely: a
 * control byte or a broken UTF-8 sequence is shown as '?', a tab as four
 * spaces, a long line as a window around the column. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ananke/limits.h"

#define EXCERPT_WIDTH 120 /* display columns shown of a long line */

struct src {
    char file[AN_ERR_FILE_MAX]; /* whose text this is ("" = none yet) */
    char *text;                 /* NULL: not readable (no excerpt) */
    size_t len;
    bool owned;
};

/* The whole of a regular file, at most the YAML size cap. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)AN_YAML_MAX_BYTES) {
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size, n = 0;
    char *buf = an_xmalloc(cap + 1);
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void src_for(struct src *s, const char *file, const struct an_mem_file *mem, size_t nmem)
{
    if (s->file[0] && !strcmp(s->file, file))
        return;
    if (s->owned)
        free(s->text);
    memset(s, 0, sizeof *s);
    snprintf(s->file, sizeof s->file, "%s", file);
    for (size_t i = 0; i < nmem; i++)
        if (mem[i].name && !strcmp(mem[i].name, file)) {
            s->text = (char *)mem[i].text;
            s->len = mem[i].len;
            return;
        }
    s->text = slurp(file, &s->len);
    s->owned = s->text != NULL;
}

/* Length of the valid UTF-8 sequence at p (not a C1 control), 0 if none. */
static size_t utf8_len(const unsigned char *p, size_t left)
{
    size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (p[0] >= 0xf5 || !n || n > left)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
        return 0; /* U+0080..U+009F: C1 controls, CSI among them */
    if (n == 3 && p[0] == 0xe0 && p[1] < 0xa0)
        return 0;
    if (n == 3 && p[0] == 0xed && p[1] >= 0xa0)
        return 0;
    if (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90)))
        return 0;
    return n;
}

/* One line of `s` shown with a caret under character `col` (1-based; 0:
 * no caret). Columns count characters, as the YAML reader's do. */
static void show_line(FILE *out, const char *line, size_t len, unsigned lineno, unsigned col)
{
    /* first the display column of each character, to pick a window */
    size_t caret = 0, width = 0, chars = 0;
    for (size_t i = 0; i < len;) {
        const unsigned char *p = (const unsigned char *)line + i;
        size_t n = *p < 0x80 ? 1 : utf8_len(p, len - i);
        if (col && chars + 1 == col)
            caret = width;
        width += *p == '\t' ? 4 : 1;
        chars++;
        i += n ? n : 1;
    }
    if (col && col > chars)
        caret = width; /* past the end: under the line's end */
    size_t from = 0;
    if (width > EXCERPT_WIDTH && caret > EXCERPT_WIDTH / 2)
        from = caret - EXCERPT_WIDTH / 2;
    char gutter[16];
    int gw = snprintf(gutter, sizeof gutter, "%u", lineno);
    fprintf(out, "  %s | %s", gutter, from ? "..." : "");
    size_t w = 0, shown = 0;
    bool cut = false;
    for (size_t i = 0; i < len;) {
        const unsigned char *p = (const unsigned char *)line + i;
        size_t n = *p < 0x80 ? 1 : utf8_len(p, len - i);
        size_t cw = *p == '\t' ? 4 : 1;
        if (w >= from) {
            if (shown >= EXCERPT_WIDTH) {
                cut = true;
                break;
            }
            if (*p == '\t')
                fputs("    ", out);
            else if (*p < 0x20 || *p == 0x7f || (*p >= 0x80 && !n))
                fputc('?', out);
            else
                fwrite(p, 1, n, out);
            shown += cw;
        }
        w += cw;
        i += n ? n : 1;
    }
    fprintf(out, "%s\n", cut ? "..." : "");
    if (!col)
        return;
    fprintf(out, "  %*s | %*s^\n", gw, "", (int)(caret - from + (from ? 3 : 0)), "");
}

static void excerpt(FILE *out, const struct an_err *e, struct src *s, const struct an_mem_file *mem,
                    size_t nmem)
{
    if (!e->file[0] || !e->line)
        return;
    src_for(s, e->file, mem, nmem);
    if (!s->text)
        return;
    const char *p = s->text, *end = s->text + s->len;
    for (unsigned l = 1; l < e->line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    if (p >= end && e->line > 1)
        return; /* the file changed since: say nothing rather than something wrong */
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (len && p[len - 1] == '\r')
        len--;
    show_line(out, p, len, e->line, e->col);
}

void cli_print_errors(FILE *out, const struct an_errlist *errs, const struct an_mem_file *mem,
                      size_t nmem)
{
    struct src s = {{0}, NULL, 0, false};
    for (size_t i = 0; i < errs->n; i++) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        fprintf(out, "%s\n", an_err_format(&errs->v[i], buf, sizeof buf));
        excerpt(out, &errs->v[i], &s, mem, nmem);
    }
    if (s.owned)
        free(s.text);
}
