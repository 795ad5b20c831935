/*
 * `ananke view` (docs/history.md "ananke view"): a local web app over the
 * run history and the recordings it points at. It listens on a loopback
 * address only, opens the database read-only, answers only GET and HEAD
 * requests whose Host header names that address (or localhost) and its
 * port, and escapes every string it shows.
 *
 * Ownership: the server (an_view) is the caller's, stopped and freed with
 * an_view_stop() (NULL-safe). The options are borrowed for the call.
 */
#ifndef ANANKE_VIEW_H
#define ANANKE_VIEW_H

#include <stdint.h>

#include "ananke/err.h"

/* The address listened on unless told otherwise. */
#define AN_VIEW_BIND_DEFAULT "127.0.0.1"
/* The default port (0: a free one, chosen by the system). */
#define AN_VIEW_PORT_DEFAULT 8470

/* The caps' defaults (docs/view.md "Caps"; the config's `view:` keys). */
#define AN_VIEW_MAX_ROWS_DEFAULT 500                  /* view.max_rows */
#define AN_VIEW_MAX_PAGE_BYTES_DEFAULT (32u << 20)    /* view.max_page_bytes */
#define AN_VIEW_MAX_RESULTS_BYTES_DEFAULT (64u << 20) /* view.max_results_bytes */
#define AN_VIEW_MAX_CONNECTIONS_DEFAULT 32            /* view.max_connections */
#define AN_VIEW_IDLE_TIMEOUT_MS_DEFAULT 15000         /* view.idle_timeout_ms */

struct an_view_opts {
    const char *db_path; /* the history database (opened read-only) */
    const char *bind;    /* an IPv4 loopback address (127.x.x.x) or "localhost"; NULL: default */
    unsigned port;       /* 0: a free one */
    /* the caps; 0: the default */
    int64_t max_rows;          /* rows of a list (a run's tests, a comparison: 20 times it) */
    int64_t max_page_bytes;    /* a page or JSON answer */
    int64_t max_results_bytes; /* a recording's results.json read */
    int64_t max_connections;   /* connections at once */
    int64_t idle_timeout_ms;   /* an idle connection is closed (whole seconds, rounded up) */
};

struct an_view;
/* Start serving in a thread of its own. 0 and *out; AN_EUSAGE for an
 * address that is not loopback; AN_ENOTFOUND for no history yet; AN_EIO
 * for a database that cannot be read or a port that cannot be bound. */
int an_view_start(struct an_view **out, const struct an_view_opts *o, struct an_err *err);
/* The port listened on (the one chosen when 0 was asked for). */
unsigned an_view_port(const struct an_view *v);
/* The address listened on, as text ("127.0.0.1"). */
const char *an_view_addr(const struct an_view *v);
/* Stop serving (requests under way finish) and free everything. */
void an_view_stop(struct an_view *v);

#endif
