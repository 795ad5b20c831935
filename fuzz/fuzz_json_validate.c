/*
 * The JSON checker against the parser: an_json_valid_fast may say yes
 * only to text that an_json_parse takes, with the tree jansson itself
 * builds; and a tool call's arguments judged at the end of a call
 * (an_tool_call_parse_args) give, on first read, what a parse at once
 * would. The input is the JSON text. Any disagreement aborts.
 *
 * One disagreement is meant: a text jansson refuses only for a number it
 * cannot hold (an integer beyond int64, a real beyond a double) is taken
 * by an_json_parse, the number kept as a real or as its text; the same
 * text with those numbers rewritten so is what jansson then builds.
 * And one rewrite: a NUL inside a string comes out of an_json_parse as the
 * six characters \u0000 (a C string would be cut there), so jansson's tree
 * is compared after the same rewrite (an_json_escape_nuls).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/transcript.h"
#include "core/json.h"
#include "fuzz.h"

static void disagree(const char *what)
{
    fprintf(stderr, "fuzz_json_validate: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    json_error_t je;
    json_t *jansson = json_loadb(s, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    json_t *parsed = an_json_parse(s, size, NULL, 0);
    bool range = !jansson && (strstr(je.text, "too big") || strstr(je.text, "overflow"));
    if (range && parsed)
        jansson = json_incref(parsed); /* its values are checked by test_json.c */
    else if (jansson)
        an_json_escape_nuls(jansson);
    if (!parsed != !jansson)
        disagree("an_json_parse and jansson disagree on acceptance");
    if (parsed && !json_equal(parsed, jansson))
        disagree("an_json_parse and jansson build different values");
    if (an_json_valid_fast(s, size) && !parsed)
        disagree("the checker accepts what an_json_parse refuses");
    json_decref(parsed);
    json_decref(jansson);

    /* the same text as a tool call's arguments (a C string: up to a NUL) */
    struct an_tool_call tc = {0};
    tc.args_text = fz_strdup(data, size);
    size_t n = strlen(tc.args_text);
    bool blank = strspn(tc.args_text, " \t\r\n") == n;
    json_t *want = blank ? json_object()
                         : json_loadb(tc.args_text, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!want && (strstr(je.text, "too big") || strstr(je.text, "overflow")))
        want = an_json_parse(tc.args_text, n, NULL, 0); /* numbers out of range: kept */
    else if (want)
        an_json_escape_nuls(want);
    char why[256];
    bool ok = an_tool_call_parse_args(&tc, why, sizeof why);
    if (ok != (want != NULL) || ok != (tc.args_error == NULL))
        disagree("tool arguments judged unlike a parse at once");
    const json_t *got = an_tool_call_args(&tc);
    if (!got != !want || (got && !json_equal((json_t *)got, want)))
        disagree("tool arguments built unlike a parse at once");
    if (tc.args_lazy || an_tool_call_args(&tc) != got)
        disagree("tool arguments not cached");
    json_decref(want);
    json_decref(tc.args);
    free(tc.args_error);
    free(tc.args_text);
    return 0;
}
