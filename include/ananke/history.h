/*
 * The run history (docs/history.md): every `ananke run`, `replay` and
 * `comply` appends its run to a SQLite database, by default
 * PROJECT/.ananke/history.sqlite, and `ananke history` reads it back.
 *
 * Writing never fails a run: each call returns an error code and fills
 * `err`, and the caller warns once and goes on with its own exit code.
 * Everything written goes in through bound parameters; every text is cut
 * to `max_text_bytes` (the config's max_history_text_bytes).
 *
 * Ownership: a recorder (an_history_rec) and a reader (an_history) are the
 * caller's, freed with their _free() (NULL-safe); JSON values returned are
 * new references; strings returned are malloc'd and the caller's.
 */
#ifndef ANANKE_HISTORY_H
#define ANANKE_HISTORY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/result.h"

/* The schema version this library writes (PRAGMA user_version). */
#define AN_HISTORY_SCHEMA_VERSION 4
/* Default of max_history_text_bytes: each text stored (a name, a finding's
 * field, the command line) is cut there. */
#define AN_HISTORY_TEXT_MAX_DEFAULT 4096
/* The default database, relative to the project directory. */
#define AN_HISTORY_DEFAULT_DIR ".ananke"
#define AN_HISTORY_DEFAULT_FILE "history.sqlite"

/* Where a run's history goes: `flag` (--history FILE) wins, then `off`
 * (--no-history), then the ANANKE_HISTORY variable ("0", "off", "false",
 * "no": none; another value: that file), then the default under
 * project_dir. NULL: no history for this run; else malloc'd. *is_default:
 * the default path (created inside a 0700 .ananke/, never through a link). */
char *an_history_path(const char *flag, bool off, const char *project_dir, bool *is_default);

/* One of the runs `ananke merge` joined: its JSON result's started_ms and
 * shard ("I/N", NULL: none). The run of this history that has both is the
 * one merged (runs.merged_into). */
struct an_history_part {
    int64_t started_ms;
    const char *shard;
};

/* What a run says about itself besides its result. Borrowed. */
struct an_history_run_info {
    const char *kind;        /* "run", "replay", "comply", "merge" */
    const char *command;     /* the command line, secrets already redacted */
    const char *project_dir; /* test files' paths are relative to it; git is looked for here */
    const char *config_path; /* hashed (sha256) for config_digest; NULL: none */
    const char *recording;   /* --record DIR, or NULL */
    int64_t max_text_bytes;  /* 0: AN_HISTORY_TEXT_MAX_DEFAULT */
    /* merge: the runs joined; those of them this history holds get
     * merged_into = the new run, and leave the queries over tests */
    const struct an_history_part *parts;
    size_t nparts;
    /* the config's sha256 (32 bytes) as it was loaded: config_digest
     * without reading config_path again; NULL: config_path is read */
    const unsigned char *config_sum;
};

/* A recorder: created before the run, told of each test as it finishes
 * (its counters are taken then, while its transcript is still there), and
 * written once the run is over. */
struct an_history_rec;
struct an_history_rec *an_history_rec_new(void);
/* The k-th finished test (in the order of the result's tests). */
void an_history_rec_note(struct an_history_rec *r, const struct an_test_result *t);
/* Open the database at `path` on a thread of its own while the run goes
 * on, when it is there already (nothing is created; a failure is left to
 * the write, which opens it again and says why): the write then only
 * appends. The write (or free) waits for that thread; a write to another
 * path opens its own. */
void an_history_rec_prepare(struct an_history_rec *r, const char *path, bool is_default);
/* Open (creating) the database at `path`, migrate it and append the run
 * in one transaction. 0 and *run_id, or an error (a corrupt, locked,
 * unwritable database; a link in the file's place). */
int an_history_rec_write(struct an_history_rec *r, const char *path, bool is_default,
                         const struct an_history_run_info *info, const struct an_run_result *res,
                         int64_t *run_id, struct an_err *err);
void an_history_rec_free(struct an_history_rec *r);

/* A reader over an existing database (migrated to this version first). */
struct an_history;
int an_history_open(struct an_history **out, const char *path, struct an_err *err);
void an_history_free(struct an_history *h);

enum an_history_what {
    AN_HISTORY_RUNS = 0, /* recent runs, newest first */
    AN_HISTORY_TEST,     /* one test's outcomes over time (name or test_id) */
    AN_HISTORY_FLAKY,    /* tests whose outcome changed while their file did not */
    /* (TEST, FLAKY, SLOWEST, REGRESSED leave out the runs a merge joined:
     * the merged run stands for them) */
    AN_HISTORY_SLOWEST,   /* tests by mean duration */
    AN_HISTORY_REGRESSED, /* passed at REF (a run id or a commit), fail or error now */
};
struct an_history_query {
    enum an_history_what what;
    const char *test; /* AN_HISTORY_TEST */
    const char *ref;  /* AN_HISTORY_REGRESSED */
    unsigned limit;   /* rows shown; 0: 20 */
    unsigned window;  /* FLAKY, SLOWEST: a test's last N runs looked at; 0: 20 */
};
/* The rows as a JSON array (docs/history.md "JSON"); NULL and err. */
json_t *an_history_query(struct an_history *h, const struct an_history_query *q,
                         struct an_err *err);

/* Delete runs (with their tests and findings): all but the newest `keep`
 * (keep < 0: no such rule), and those started before `before_ms` (0: no
 * such rule). *removed: runs deleted. */
int an_history_prune(struct an_history *h, long keep, int64_t before_ms, size_t *removed,
                     struct an_err *err);

#endif
