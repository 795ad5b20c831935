/* tool_mocks: which rule answers a tools/call (docs/tools.md). */
#ifndef ANANKE_TOOLS_MOCKS_H
#define ANANKE_TOOLS_MOCKS_H

#include <jansson.h>

#include "ananke/model.h"
#include "tools/ctx.h"

enum an_mock_verdict {
    AN_MOCK_NONE = 0,    /* no rule: the upstream answers */
    AN_MOCK_RULE,        /* the rule answers (a result or a fault) */
    AN_MOCK_PASS,        /* a passthrough rule: the upstream answers */
    AN_MOCK_STRICT_MISS, /* no rule and tool_mocks_strict: refused */
};
struct an_mock_answer {
    const struct an_tool_mock *rule; /* borrowed from the suite */
    const json_t *result;            /* this call's result (result/results), or NULL */
};
/* The rule of c's turn, then of its test, that answers this call (c NULL:
 * a call of no test, AN_MOCK_NONE); a strict miss is noted on c. */
enum an_mock_verdict an_tools_mock_for(struct an_tool_ctx *c, const char *server, const char *tool,
                                       const json_t *args, struct an_mock_answer *out);

#endif
