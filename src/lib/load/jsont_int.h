/*
 * Private to the .jsont loader: what jsont.c (the model, its top-level
 * keys), jsont_pass1.c (the text pass and positions in its source),
 * jsont_steps.c (the ACP steps), jsont_sandbox.c (the sandbox's files),
 * jsont_agui.c (the AG-UI and A2A steps) and jsont_locate.c (positions in
 * the parsed text) share while one file is validated.
 */
#ifndef ANANKE_LOAD_JSONT_INT_H
#define ANANKE_LOAD_JSONT_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "load/jsont.h"

/* ---- pass 1 (jsont_pass1.c) ---- */

/* A substitution made outside strings: output bytes [out, out+out_len)
 * came from source bytes [src, src+src_len). */
struct subst {
    size_t out, out_len, src, src_len;
};

/* A ${NAME} inside a string literal, checked once the captures are known. */
struct ref {
    char name[128];
    size_t src;
};

struct pass1 {
    struct an_buf out;
    struct subst *subs;
    size_t nsubs;
    struct ref *refs;
    size_t nrefs;
    bool uses_caps; /* a bare ${clientCapabilitiesDefault} */
};

/* Pass 1 over text (len bytes; file names it in errors): ${protocolVersionDefault}
 * and ${clientCapabilitiesDefault} (caps_json) put in outside strings, the
 * ${NAME}s inside strings noted (p->refs). p: zeroed, or released. */
int jsont_pass1_run(struct pass1 *p, const char *file, const char *text, size_t len,
                    const char *caps_json, struct an_err *err);
/* Pass 1's output parsed; NULL with an error located in text. */
json_t *jsont_pass1_parse(struct pass1 *p, const char *file, const char *text, struct an_err *err);
void jsont_pass1_release(struct pass1 *p);
/* The line and column of byte off of text. */
void jsont_src_loc(const char *text, size_t off, const char *file, struct an_loc *loc);

/* One file being validated into its model. */
struct jsont_ld {
    struct an_jsont *t;
    const char *file;
    struct an_err *err;
    const char *src;          /* the raw file (positions are reported in it) */
    const struct pass1 *pass; /* pass 1 over src: its output was parsed */
    char at[128];             /* dotted path of the step being read; "" outside steps */
};

/* Fail with `code` at the value `path` ("steps.3.run.input": keys and array
 * indexes, as an_jsont_path reads them) or, when it does not exist, at its
 * nearest existing parent; NULL or "": no line and column. Returns code. */
int jsont_fail_at(struct jsont_ld *l, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The location of `path` as jsont_fail_at() finds it. */
void jsont_loc_at(const struct jsont_ld *l, const char *path, struct an_loc *loc);
/* Keep a JSON value for the life of the model (a reference is taken). */
json_t *jsont_keep(struct jsont_ld *l, json_t *v);
/* A schema error at the step being read (l->at), or without a position. */
int jsont_bad(struct jsont_ld *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* v, when given, as an array of strings into *out (arena-owned). */
int jsont_load_strings(struct jsont_ld *l, json_t *v, const char *what, const char ***out,
                       size_t *n, bool nonempty);

/* jsont_steps.c: one step of an ACP test (and the dispatch of every step
 * kind: the AG-UI ones go to jsont_load_agui_step). */
int jsont_load_step(struct jsont_ld *l, struct an_jsont_step *st, json_t *s);

/* jsont_sandbox.c: the "sandbox" object (its files), when given. */
int jsont_load_files(struct jsont_ld *l, json_t *sb);

/* jsont_agui.c: the AG-UI step kinds. `key` is "run" or "http", `v` its
 * value; l->at names the step. */
int jsont_load_agui_step(struct jsont_ld *l, struct an_jsont_step *st, const char *key, json_t *v,
                         json_t *step);

/* jsont_locate.c: the byte offset of the value at `path` in `json` (which
 * must be valid JSON), or of its nearest existing parent. */
size_t jsont_locate(const char *json, size_t len, const char *path);

#endif
