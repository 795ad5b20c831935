/* tool_mocks (docs/tools.md "Stubs and faults"): the rules of the turn in
 * flight, and which one answers a call. The turn's own rules come first,
 * then the test's (the nearer level wins); `results` advance per rule
 * over the test (each test its own, tools/ctx.h). */
#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "ananke/regex.h"
#include "tools/ctx.h"
#include "tools/mocks.h"
#include "tools/replay.h"
#include "tools/tools.h"

/* Every call's test (tools/ctx.h): its turn's rules, its sequences, its
 * refusal, under the registry's lock. */

void an_tools_turn_begins(struct an_tool_ctx *c, const struct an_turn *turn, size_t turn_no)
{
    if (!c)
        return;
    an_tool_ctx_lock();
    c->turn = turn;
    c->turn_no = turn_no;
    c->in_turn = true;
    free(c->refusal);
    c->refusal = NULL;
    an_tool_ctx_unlock();
    if (turn_no <= 1)
        an_replay_rewind(c); /* a test (or a run of it) starts its sequences again */
}

void an_tools_turn_ends(struct an_tool_ctx *c)
{
    if (!c)
        return;
    an_tool_ctx_lock();
    c->in_turn = false;
    an_tool_ctx_unlock();
}

char *an_tools_take_strict_miss(struct an_tool_ctx *c)
{
    if (!c)
        return NULL;
    an_tool_ctx_lock();
    char *s = c->refusal;
    c->refusal = NULL;
    an_tool_ctx_unlock();
    return s;
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

static size_t next_index(struct an_tool_ctx *c, const struct an_tool_mock *m)
{
    for (size_t i = 0; i < c->ncounted; i++)
        if (c->counted[i].rule == m)
            return c->counted[i].n++;
    if (c->ncounted < AN_TOOL_COUNTED) {
        c->counted[c->ncounted].rule = m;
        c->counted[c->ncounted++].n = 1;
    }
    return 0;
}

enum an_mock_verdict an_tools_mock_for(struct an_tool_ctx *c, const char *server, const char *tool,
                                       const json_t *args, struct an_mock_answer *out)
{
    memset(out, 0, sizeof *out);
    enum an_mock_verdict v = AN_MOCK_NONE;
    if (!c)
        return v; /* no test's call: no test's rules */
    an_tool_ctx_lock();
    const struct an_turn *cur_turn = c->turn;
    const struct an_test *cur_test = c->test;
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
                size_t k = next_index(c, m);
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
        if (!c->refusal) {
            char *a = args ? json_dumps(args, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
            size_t len = strlen(tool ? tool : "") + (a ? strlen(a) : 0) + strlen(server) + 128;
            c->refusal = an_xmalloc(len);
            snprintf(c->refusal, len,
                     "no tool_mocks rule matches the call %s(%s) on tool server '%s' "
                     "(tool_mocks_strict)",
                     tool ? tool : "?", a ? a : "", server);
            free(a);
        }
    }
    an_tool_ctx_unlock();
    return v;
}
