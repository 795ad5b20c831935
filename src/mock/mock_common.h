/*
 * What every `ananke-mock PROTOCOL` server shares: parsing numeric flags,
 * telling the caller where it listens, logging requests, stopping on a
 * signal.
 *
 * A test harness starts a mock, reads one line `http://127.0.0.1:PORT` from
 * its stdout (or polls --port-file), drives it, reads the --requests log and
 * sends SIGTERM. These helpers keep that contract the same for every
 * protocol.
 */
#ifndef ANANKE_MOCK_COMMON_H
#define ANANKE_MOCK_COMMON_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

/* A scripted response header. */
struct mock_header {
    const char *name, *value;
};

/* A decimal number in [min, max], the whole string; AN_EUSAGE naming `flag` otherwise. */
int mock_parse_ulong(const char *s, const char *flag, unsigned long min, unsigned long max,
                     unsigned long *out, struct an_err *err);

/* One option of a table-driven parser: `--name VALUE`, `--name=VALUE`, or
 * for a switch `--name` alone. `out` points to a `const char *` (STR, the
 * value borrowed from argv), an `unsigned long` (ULONG, checked against
 * [min, max]) or a `bool` (SWITCH, set to true). */
enum mock_flag_kind { MOCK_FLAG_STR, MOCK_FLAG_ULONG, MOCK_FLAG_SWITCH };
struct mock_flag {
    const char *name;
    enum mock_flag_kind kind;
    void *out;
    unsigned long min, max;
};

/* Parse argv[1..argc) against flags[0..n). Sets *help and stops at
 * -h/--help. AN_EUSAGE for an unknown option or a missing or bad value. */
int mock_parse_flags(int argc, char **argv, const struct mock_flag *flags, size_t n, bool *help,
                     struct an_err *err);

/* The flags of every HTTP mock: --scenario FILE [--port N] [--port-file
 * PATH] [--requests PATH] [--max-body BYTES], each also as --name=VALUE.
 * Strings are borrowed from argv. */
struct mock_server_flags {
    const char *scenario, *port_file, *requests;
    unsigned long port, max_body;
};

/* Parse argv[1..argc) into f (whose max_body holds the default). Sets *help
 * and stops at -h/--help. AN_EUSAGE for an unknown option, a missing or bad
 * value, or no --scenario. */
int mock_parse_server_flags(int argc, char **argv, struct mock_server_flags *f, bool *help,
                            struct an_err *err);

/* Print err on stderr, as `FILE:LINE:COL: message` when it has a location,
 * else as `ananke-mock PROTOCOL: message`; returns status. */
int mock_report(const struct an_err *err, const char *protocol, int status);

/* A bad flag: err as mock_report() prints it, then where to find the usage;
 * returns 2, the exit status of bad flags. */
int mock_usage_error(const struct an_err *err, const char *protocol);

/* Block SIGINT and SIGTERM in the calling thread (call before starting any
 * server thread, so every thread inherits the mask and the signal waits for
 * mock_signals_wait) and ignore SIGPIPE (a client that hangs up mid-stream
 * must not kill the mock). */
void mock_signals_setup(sigset_t *stop_set);
/* Wait until SIGINT or SIGTERM arrives; returns the signal number. */
int mock_signals_wait(const sigset_t *stop_set);

/* Print `http://127.0.0.1:PORT` on stdout (one line, flushed) and, when
 * port_file is not NULL, write the port there through a temporary file and
 * rename(), so a reader never sees a partial number. */
int mock_announce(unsigned port, const char *port_file, struct an_err *err);

/* The --requests log: one JSON object per line, appended and flushed per
 * request; thread-safe. */
struct mock_reqlog;
int mock_reqlog_open(struct mock_reqlog **out, const char *path, struct an_err *err);
/* Append `line` (not stolen). NULL-safe on `log`. */
void mock_reqlog_write(struct mock_reqlog *log, const json_t *line);
void mock_reqlog_close(struct mock_reqlog *log); /* NULL-safe */

#endif
