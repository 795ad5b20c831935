/* tool_mocks (docs/tools.md "Stubs and faults"): the rules of the turn in
 * flight, and which one answers a call. The turn's own rules come first,
 * then the test's (the nearer level wins); `results` advance per rule
 * over the test. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "ananke/regex.h"
#include "tools/mocks.h"
#include "tools/tools.h"

#define MAX_COUNTED 256 /* rules with `results` counted per test */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static const struct an_test *cur_test;
static const struct an_turn *cur_turn;
static struct {
    const struct an_tool_mock *rule;
    size_t n;
} counted[MAX_COUNTED];
static size_t ncounted;
static char *strict_miss;

void an_tools_use_mocks(const struct an_test *test, const struct an_turn *turn)
{
    pthread_mutex_lock(&mu);
    if (test != cur_test)
        ncounted = 0;
    cur_test = test;
    cur_turn = turn;
    free(strict_miss);
    strict_miss = NULL;
    pthread_mutex_unlock(&mu);
}

char *an_tools_take_strict_miss(void)
{
    pthread_mutex_lock(&mu);
    char *s = strict_miss;
    strict_miss = NULL;
    pthread_mutex_unlock(&mu);
    return s;
}

void an_tools_note_miss(char *msg)
{
    pthread_mutex_lock(&mu);
    if (!strict_miss) {
        strict_miss = msg;
        msg = NULL;
    }
    pthread_mutex_unlock(&mu);
    free(msg);
}

static bool rule_matches(const struct an_tool_mock *m, const char *server, const char *tool,
                         const json_t *args)
{
    if (strcmp(m->tool, tool) != 0 || (m->server && strcmp(m->server, server) != 0))
        return false;
    for (size_t a = 0; a < m->nargs; a++) {
        const json_t *v = an_json_dot_path(args, m->args[a].path);
        if (!v)
            return false;
        char *t = an_json_match_text(v);
        bool ok = an_regex_search(m->args[a].re, t, strlen(t));
        free(t);
        if (!ok)
            return false;
    }
    return true;
}

static size_t next_index(const struct an_tool_mock *m)
{
    for (size_t i = 0; i < ncounted; i++)
        if (counted[i].rule == m)
            return counted[i].n++;
    if (ncounted < MAX_COUNTED) {
        counted[ncounted].rule = m;
        counted[ncounted++].n = 1;
    }
    return 0;
}

enum an_mock_verdict an_tools_mock_for(const char *server, const char *tool, const json_t *args,
                                       struct an_mock_answer *out)
{
    memset(out, 0, sizeof *out);
    enum an_mock_verdict v = AN_MOCK_NONE;
    pthread_mutex_lock(&mu);
    const struct an_tool_mock *lists[2] = {cur_turn ? cur_turn->tool_mocks : NULL,
                                           cur_test ? cur_test->tool_mocks : NULL};
    size_t ns[2] = {cur_turn ? cur_turn->ntool_mocks : 0, cur_test ? cur_test->ntool_mocks : 0};
    for (size_t l = 0; l < 2 && v == AN_MOCK_NONE; l++) {
        for (size_t i = 0; i < ns[l]; i++) {
            const struct an_tool_mock *m = &lists[l][i];
            if (!rule_matches(m, server, tool ? tool : "", args))
                continue;
            out->rule = m;
            if (m->nresults) {
                size_t k = next_index(m);
                out->result = m->results[k < m->nresults ? k : m->nresults - 1];
            }
            v = m->passthrough ? AN_MOCK_PASS : AN_MOCK_RULE;
            break;
        }
    }
    int strict = cur_turn && cur_turn->tool_mocks_strict ? cur_turn->tool_mocks_strict
                 : cur_test                              ? cur_test->tool_mocks_strict
                                                         : 0;
    if (v == AN_MOCK_NONE && strict == 2) {
        v = AN_MOCK_STRICT_MISS;
        if (!strict_miss) {
            char *a = args ? json_dumps(args, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
            size_t len = strlen(tool ? tool : "") + (a ? strlen(a) : 0) + strlen(server) + 128;
            strict_miss = malloc(len);
            if (strict_miss)
                snprintf(strict_miss, len,
                         "no tool_mocks rule matches the call %s(%s) on tool server '%s' "
                         "(tool_mocks_strict)",
                         tool ? tool : "?", a ? a : "", server);
            free(a);
        }
    }
    pthread_mutex_unlock(&mu);
    return v;
}
