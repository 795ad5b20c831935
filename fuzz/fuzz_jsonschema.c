/*
 * The JSON Schema validator (core/jsonschema.h): the input is a JSON array
 * [schema, instance]. A schema that compiles must validate any instance
 * without failing unexpectedly or hanging (a $ref loop is an error, not a
 * recursion); the errors are formatted as reports show them.
 */
#include "core/buf.h"
#include "core/json.h"
#include "core/jsonschema.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[256];
    json_t *j = an_json_parse((const char *)data, size, why, sizeof why);
    if (!j)
        return 0;
    const json_t *schema = json_array_get(j, 0), *inst = json_array_get(j, 1);
    struct an_jschema *s = NULL;
    if (schema && an_jschema_compile(&s, schema, why, sizeof why) == 0) {
        struct an_jschema_errors errs = {0};
        size_t n = an_jschema_validate(s, inst ? inst : schema, &errs);
        struct an_buf b = AN_BUF_INIT;
        for (size_t i = 0; i < errs.n; i++)
            an_jschema_error_format(&errs.v[i], &b);
        an_buf_release(&b);
        an_jschema_errors_release(&errs);
        if ((n == 0) != (an_jschema_validate(s, inst ? inst : schema, NULL) == 0))
            __builtin_trap(); /* the verdict must not depend on keeping errors */
        an_jschema_free(s);
    }
    json_decref(j);
    return 0;
}
