#include "json_assert.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/json.h"

json_t *ut_json_parse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
    if (!j)
        fail_msg("bad JSON (%s): %s", je.text, text);
    return j;
}

void ut_assert_json(const char *title, const json_t *got, const char *want_text)
{
    json_t *want = ut_json_parse(want_text);
    if (!got || !json_equal((json_t *)got, want)) {
        char *g = got ? an_json_compact(got) : strdup("(null)");
        json_decref(want);
        fail_msg("%s:\n  got  %s\n  want %s", title, g, want_text);
    }
    json_decref(want);
}
