/*
 * A run's tool coverage (an_run_result.tool_coverage, docs/tools.md "Tool
 * coverage") read into rows the console, Markdown and HTML reporters show.
 *
 * Ownership: a server's rows borrow their strings from the coverage JSON;
 * rpt_cov_release() frees the row array.
 */
#ifndef ANANKE_REPORT_RPT_TOOLCOV_H
#define ANANKE_REPORT_RPT_TOOLCOV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct rpt_cov_tool {
    const char *name;
    bool exposed;                   /* in the server's tools/list */
    long long calls, tests, mocked; /* 0 when never called */
    const json_t *keys;             /* argument_keys; NULL when never called */
};

struct rpt_cov_server {
    const char *name;
    size_t nexposed, ncovered; /* exposed tools, and those called */
    long long calls, mocked;   /* every call, exposed or not */
    bool has_ratio;            /* false: it exposes nothing */
    double ratio;
    struct rpt_cov_tool *tools; /* exposed in listed order, then the others */
    size_t ntools;
};

/* Server `name`'s entry s of the coverage. */
void rpt_cov_read(const char *name, const json_t *s, struct rpt_cov_server *out);
void rpt_cov_release(struct rpt_cov_server *s);

#endif
