/*
 * Private to the .jsont loader: what jsont.c (the passes, the ACP steps,
 * the model), jsont_agui.c (the AG-UI steps) and jsont_locate.c (source
 * positions) share while one file is validated.
 */
#ifndef ANANKE_LOAD_JSONT_INT_H
#define ANANKE_LOAD_JSONT_INT_H

#include <stdarg.h>
#include <stddef.h>

#include "load/jsont.h"

struct pass1;

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

/* jsont_agui.c: the AG-UI step kinds. `key` is "run" or "http", `v` its
 * value; l->at names the step. */
int jsont_load_agui_step(struct jsont_ld *l, struct an_jsont_step *st, const char *key, json_t *v,
                         json_t *step);

/* jsont_locate.c: the byte offset of the value at `path` in `json` (which
 * must be valid JSON), or of its nearest existing parent. */
size_t jsont_locate(const char *json, size_t len, const char *path);

#endif
