/*
 * The fast path of the YAML reader (internal to core/yaml.c, its tests and
 * its fuzz target).
 *
 * Most test and config files use a small part of YAML: block mappings and
 * sequences, one-line scalars (plain, 'single' or "double" quoted) and
 * one-line flow collections, comments. For such a file an_yaml_fast_parse()
 * gives the very events libyaml's yaml_parser_parse() would give (same
 * order, kinds, values, scalar styles and start marks) at a fraction of the
 * cost; yaml.c builds its tree from them with the same code. For anything
 * else, and whenever it is unsure, the fast path declines the WHOLE input
 * and yaml.c reads it with libyaml: it never reports an error of its own.
 *
 * Ownership: an_yaml_fast_parse() fills a caller-owned struct an_yfast.
 * Scalar values borrow from the input (which must outlive the events) or
 * from a buffer inside the struct, so the struct must not be copied or
 * moved while its events are in use. an_yaml_fast_release() frees what the
 * struct holds; call it after every an_yaml_fast_parse(), whatever it
 * returned.
 */
#ifndef ANANKE_CORE_YAML_FAST_H
#define ANANKE_CORE_YAML_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "core/yaml.h"

/* Larger inputs go to libyaml: the events of a big file would take more
 * memory than they save time. */
#define AN_YAML_FAST_MAX_BYTES (1024u * 1024u)

struct an_yfast_event {
    const char *value;   /* scalars: not NUL-terminated; borrowed (see above) */
    unsigned len;        /* scalars: bytes of value */
    unsigned line, col;  /* 0-based, as libyaml's start_mark (col in characters) */
    unsigned char type;  /* yaml_event_type_t: SCALAR, {SEQUENCE,MAPPING}_{START,END} */
    unsigned char style; /* scalars: yaml_scalar_style_t, PLAIN or *_QUOTED */
};

struct an_yfast {
    struct an_yfast_event *ev; /* the events of the one document, root first */
    size_t n, cap;
    char *scratch; /* decoded quoted scalars that differ from their source */
    size_t scratch_len, scratch_cap;
    struct an_yfast_event small_ev[64];
    char small_scratch[512];
};

/* True when the fast path took `data`: f->ev then holds its events (none
 * for a document-less input such as only comments). False when libyaml
 * must read it. */
bool an_yaml_fast_parse(struct an_yfast *f, const char *data, size_t len);
void an_yaml_fast_release(struct an_yfast *f);

/* Event i of f as libyaml would have given it; past the last event, a
 * STREAM-END. The result borrows from f and must not reach
 * yaml_event_delete(). */
void an_yaml_fast_event(const struct an_yfast *f, size_t i, yaml_event_t *ev);

/* Which reader an_yaml_load_mem_with() uses (defined in yaml.c). */
enum an_yaml_reader {
    AN_YAML_READER_AUTO,    /* the fast path, else libyaml: what an_yaml_load_mem2 does */
    AN_YAML_READER_LIBYAML, /* libyaml only */
    AN_YAML_READER_FAST,    /* the fast path only */
};
#define AN_YAML_FAST_DECLINED (-1)

/* an_yaml_load_mem2() with the reader chosen, for the tests and the fuzz
 * target that compare the two. With AN_YAML_READER_FAST, an input the fast
 * path declines returns AN_YAML_FAST_DECLINED, leaves *out NULL and `err`
 * untouched (an input over AN_YAML_MAX_BYTES fails first, as it does with
 * every reader). */
int an_yaml_load_mem_with(struct an_ynode **out, const char *name, const char *data, size_t len,
                          struct an_arena *a, struct an_arena *strings, struct an_err *err,
                          enum an_yaml_reader reader);

#endif
