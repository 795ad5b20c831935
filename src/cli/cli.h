/* The command line: one file per subcommand, dispatched from main.c. */
#ifndef ANANKE_CLI_H
#define ANANKE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ananke/history.h"
#include "ananke/load.h"
#include "ananke/result.h"
#include "ananke/run.h"

/* Exit codes (DESIGN.md "Command line"). */
enum { AN_EXIT_OK = 0, AN_EXIT_FAIL = 1, AN_EXIT_INVALID = 2 };

/* The whole CLI: argv[1] names the subcommand (src/cli/dispatch.c). */
int an_cli_main(int argc, char **argv);

int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_tool_proxy(int argc, char **argv);
int cmd_comply(int argc, char **argv);
struct cli_reporters;
/* comply --merge (comply_merge.c): the comply JSON results at paths joined
 * into the html reports of reps; the exit code. */
int cli_comply_merge(const char *const *paths, size_t n, const struct cli_reporters *reps);
int cmd_mcp_bridge(int argc, char **argv); /* not in the help: comply runs it */
int cmd_compare(int argc, char **argv);
int cmd_replay(int argc, char **argv);

/* Shared by run and validate: load the suite named by -c and the paths,
 * print every load error to stderr. Returns 0 or an exit code. */
int cli_load(struct an_suite **out, const char *config, char **paths, int npaths);
/* The same with every load option (-n, --connector, -i cases). */
int cli_load_opts(struct an_suite **out, struct an_load_opts *o);

/* Every load error: "file:line:col: message", then the line of the file
 * with a caret under the column (src/cli/excerpt.c). An error in one of
 * the in-memory `mem` files is shown from its text. */
void cli_print_errors(FILE *out, const struct an_errlist *errs, const struct an_mem_file *mem,
                      size_t nmem);

/* seed 002's -i sources (src/cli/input.c). */
struct cli_inputs {
    const char **src; /* as given, borrowed from argv */
    size_t nsrc;
    const char *save_path; /* --save-generated */
    char **paths;          /* -i values that name files or directories */
    size_t npaths;
    struct an_mem_file *mem; /* inline messages, scripts' and generators' cases */
    size_t *mem_src;         /* which src each came from: the order to load them in */
    size_t nmem;
    bool generators; /* some -i is agents:... (needs the config first) */
};
/* Sort the sources: paths, inline messages, scripts: (run now). */
int cli_inputs_prepare(struct cli_inputs *in);
/* Ask the generator agents of the config for their cases. */
int cli_inputs_generate(struct cli_inputs *in, const struct an_config *cfg);
void cli_inputs_release(struct cli_inputs *in);

/* The reports a command writes, each a row of the library's reporter
 * table (ananke/reporter.h) and a path (src/cli/reporters.c). */
#define CLI_MAX_REPORTERS 16
struct an_reporter;
struct an_comply_result;
struct cli_reporters {
    struct {
        const struct an_reporter *row;
        const char *path; /* borrowed from argv or the row */
        bool file;        /* from -o FILE: the row's write_file */
    } v[CLI_MAX_REPORTERS];
    size_t n;
};
/* Add "NAME[:PATH]"; a usage error (exit code) for an unknown name, listing
 * the table's. "console" is accepted and adds nothing (always on). */
int cli_reporter_add(struct cli_reporters *r, const char *spec);
/* The same for comply: the rows with a compliance writer. */
int cli_reporter_add_comply(struct cli_reporters *r, const char *spec);
/* Add seed 002's -o FILE: the row whose extension FILE has; a usage error
 * naming the table's extensions otherwise. */
int cli_reporter_output(struct cli_reporters *r, const char *path);
/* Whether every report's row says it never reads a turn's messages
 * (an_reporter no_messages); true for none. */
bool cli_reporters_no_messages(const struct cli_reporters *r);
/* Write every report; errors go to stderr; returns 0 or AN_EXIT_FAIL. */
int cli_reporters_write(const struct cli_reporters *r, const struct an_run_result *res);
int cli_reporters_write_comply(const struct cli_reporters *r, const struct an_comply_result *res);
/* --help's lines for the rows (comply: those with a compliance writer),
 * one "NAME  help" line each under the --reporter option. */
void cli_reporters_help(bool comply);
/* -o's line: the extensions the table knows. */
void cli_reporters_ext_help(void);
/* `ananke run --list-reporters` (hidden; scripts/gen-completions.sh reads
 * it): every reporter name and alias, one a line. */
void cli_reporters_list(void);

/* Option tables: one row per option of a subcommand; cli_parse() parses
 * argv with it, cli_options_help() prints the options part of --help, and
 * an unknown option is answered with the closest row's name. */
struct cli_option {
    const char *name;  /* "--config" (or a hidden "-vv") */
    const char *alias; /* "-c", or NULL */
    const char *arg;   /* "FILE" in the help: the option takes a value; NULL: a flag */
    /* the description, lines separated by '\n', each further line indented
     * to the description column; a leading '\n' starts it on a line of its
     * own (for a long "--name ARG") */
    const char *help;
    /* the value (NULL for a flag) into ctx: 0 or an exit code. NULL: `field`
     * is the offset in ctx of a `const char *` (an option with an arg) or
     * a `bool` (a flag) set to the value or true */
    int (*handle)(void *ctx, const char *val);
    size_t field;
    void (*more)(void); /* more help lines after the description, or NULL */
    bool hidden;        /* not in --help (nor suggested) */
    bool help_only;     /* only a line of --help: another way to write the row
                           above it with the same name (never matched) */
};
/* The -h, --help row every table ends with (cli_parse answers it). */
/* clang-format off */
#define CLI_OPT_HELP                                                                               \
    {.name = "--help", .alias = "-h", .help = "this help", .help_only = true}
/* clang-format on */
struct cli_command {
    const char *name; /* "run" */
    const struct cli_option *opts;
    size_t nopts;
    void (*usage)(void);                         /* the whole --help */
    int (*positional)(void *ctx, const char *a); /* an argument that is no option */
};
/* Parse argv[1..] with c's table into ctx. *helped: --help was given (its
 * text printed; the command ends with 0). Returns 0 or an exit code. */
int cli_parse(const struct cli_command *c, int argc, char **argv, void *ctx, bool *helped);
void cli_options_help(const struct cli_option *opts, size_t n);
/* Print text word-wrapped at 79 columns, the cursor at column `first`,
 * further lines indented by `indent`; ends the line. */
void cli_help_wrap(int indent, int first, const char *text);

/* Choosing what runs (src/cli/select.c, docs/cli.md "Choosing what runs"). */
struct cli_at {
    char *file; /* PATH of PATH:LINE (owned) */
    unsigned line;
    const char *arg; /* as given (borrowed from argv) */
};
struct cli_select {
    const char **tags; /* --tag (borrowed strings) */
    size_t ntags;
    const char **xtags; /* --exclude-tag */
    size_t nxtags;
    struct cli_at *at; /* PATH:LINE arguments */
    size_t nat;
    bool last_failed; /* --last-failed */
    int forbid_only;  /* 1 --forbid-only; -1 not given: on when CI is set */
    bool *chosen;     /* per test of the suite, once applied (owned) */
};
/* A PATH argument: PATH:LINE is noted in sel and *path is its PATH (owned
 * by sel); anything else is *path = arg. Returns 0 or a usage error. */
int cli_select_path(struct cli_select *sel, const char *arg, const char **path);
/* Once the suite is loaded: refuse `only` under --forbid-only (every one
 * named, exit 2), and set ro->chosen from PATH:LINE and --last-failed.
 * *nothing: --last-failed has nothing to rerun (said; the run exits 0). */
int cli_select_apply(struct cli_select *sel, const struct an_suite *s, struct an_run_opts *ro,
                     bool *nothing);
/* Keep the run's failed and errored tests in the project's
 * .ananke/last-run.json for the next --last-failed (a warning when it
 * cannot be written). */
void cli_select_save(const struct an_suite *s, const struct an_run_result *r);
void cli_select_release(struct cli_select *sel);
/* `ananke init`: make DIR/.gitignore ignore .ananke/ (created, or the line
 * appended when it lacks it). Returns 0 or AN_EXIT_FAIL (said). */
int cli_gitignore_state(const char *dir);

/* "--name VALUE" or "--name=VALUE" (also a short alias: "-j 16", or "-j16"
 * as getopt reads it): true and *val set
 * when argv[*i] is that option; advances *i past a separate value. A
 * missing value sets *rc to a usage error (pointing at 'ananke CMD --help')
 * and *val to NULL, and still returns true. */
bool cli_opt(const char *cmd, int argc, char **argv, int *i, const char *name, const char *alias,
             const char **val, int *rc);

/* Print "unknown option ARG for CMD" (did you mean the closest long
 * option that `usage` prints, as YAML keys do) and return the exit code. */
int cli_unknown_option(const char *cmd, const char *arg, void (*usage)(void));
/* The same, the candidates being the rows of an option table. */
int cli_unknown_table_option(const char *cmd, const char *arg, const struct cli_option *opts,
                             size_t n);

/* "-h" or "--help". */
bool cli_opt_help(const char *a);
/* "-v"/"--verbose" adds 1 to *verbose and, for a command with a frames
 * level (`vv`), "-vv" adds 2: true when a was one of them. */
bool cli_opt_verbose(const char *a, bool vv, int *verbose);

/* SIGINT and SIGTERM request cancellation (core/cancel.h): the running
 * tests stop and the report says "interrupted". */
void cli_cancel_on_signals(void);

/* Print "ananke: <msg>" to stderr; returns AN_EXIT_INVALID. */
/* --expected-failures FILE: load it (an error is printed: exit 2), and warn
 * on stderr about the entries no test of the run matched (src/cli/expected.c). */
struct an_expected;
int cli_expected_load(const char *path, struct an_expected *out);
void cli_expected_unused(const struct an_expected *x);

/* The exit code of a run cancelled by a signal: 128 + its number (130 for
 * Ctrl-C, 143 for SIGTERM). */
int cli_interrupted_exit(void);

/* The run history (src/cli/history.c, docs/history.md): --history FILE,
 * --no-history, ANANKE_HISTORY. */
struct cli_history {
    const char *flag;           /* --history FILE (borrowed) */
    struct an_history_rec *rec; /* NULL: no history for this run */
};
struct cli_history_run {
    const char *kind; /* "run", "replay", "comply", "merge" */
    int argc;         /* the command's arguments, argv[0] its name */
    char **argv;
    const char *project_dir;      /* where the default database goes */
    const struct an_suite *suite; /* its config (digest, secrets, cap); NULL: none */
    const char *const *redact;    /* --redact */
    size_t nredact;
    const char *recording;               /* --record DIR (replay: the recording judged) */
    const struct an_history_part *parts; /* merge: the runs joined */
    size_t nparts;
};
void cli_history_start(struct cli_history *h, const char *flag, bool off);
/* Open the database the run will be appended to (its project's, or
 * --history's) while the tests go on, when it exists already
 * (an_history_rec_prepare); cli_history_finish's project_dir must be the
 * same for it to be used. */
void cli_history_prepare(struct cli_history *h, const char *project_dir);
/* Each finished test, in the order of the result's tests. */
void cli_history_note(struct cli_history *h, const struct an_test_result *t);
/* Append the run; a failure is one warning on stderr, never an exit code. */
void cli_history_finish(struct cli_history *h, const struct cli_history_run *run,
                        const struct an_run_result *res);
/* comply's result as tests named AGENT/ID (NA: skip; each unmet
 * expectation a finding), the project being the current directory. */
struct an_comply_result;
void cli_history_comply(struct cli_history *h, int argc, char **argv, const char *const *redact,
                        size_t nredact, const struct an_comply_result *cr);
void cli_history_release(struct cli_history *h);

int cmd_history(int argc, char **argv);
/* ananke view (cmd_view.c, docs/history.md "ananke view"). */
int cmd_view(int argc, char **argv);

int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
