/* JSON Schema validation: {schema, instance, expected errors} tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/jsonschema.h"

struct vcase {
    const char *title;
    const char *schema;
    const char *instance;
    const char *want; /* the errors as text, joined by "; "; NULL: valid */
};

static const struct vcase valid_cases[] = {
    /* type */
    {"type: string", "{\"type\":\"string\"}", "\"x\"", NULL},
    {"type: mismatch", "{\"type\":\"string\"}", "3", "(root): type: expected string, got integer"},
    {"type: integer accepts 2.0", "{\"type\":\"integer\"}", "2.0", NULL},
    {"type: integer refuses 2.5", "{\"type\":\"integer\"}", "2.5",
     "(root): type: expected integer, got number"},
    {"type: number accepts integers", "{\"type\":\"number\"}", "7", NULL},
    {"type: list", "{\"type\":[\"string\",\"null\"]}", "null", NULL},
    {"type: list mismatch", "{\"type\":[\"string\",\"null\"]}", "true",
     "(root): type: expected one of [\"string\",\"null\"], got boolean"},
    /* properties, required, additionalProperties */
    {"required: missing", "{\"type\":\"object\",\"required\":[\"ticket_id\",\"status\"]}",
     "{\"status\":\"open\"}", "(root): required: missing property 'ticket_id'"},
    {"properties: nested pointer",
     "{\"properties\":{\"order\":{\"properties\":{\"qty\":{\"type\":\"integer\"}}}}}",
     "{\"order\":{\"qty\":\"two\"}}", "/order/qty: type: expected integer, got string"},
    {"pointer escapes ~ and /", "{\"properties\":{\"a/b~c\":{\"type\":\"string\"}}}",
     "{\"a/b~c\":1}", "/a~1b~0c: type: expected string, got integer"},
    {"additionalProperties false", "{\"properties\":{\"a\":{}},\"additionalProperties\":false}",
     "{\"a\":1,\"b\":2}", "(root): additionalProperties: property 'b' is not allowed"},
    {"additionalProperties schema",
     "{\"properties\":{\"a\":{}},\"additionalProperties\":{\"type\":\"number\"}}",
     "{\"a\":\"x\",\"b\":\"y\"}", "/b: type: expected number, got string"},
    {"patternProperties count as known",
     "{\"patternProperties\":{\"^x-\":{\"type\":\"string\"}},\"additionalProperties\":false}",
     "{\"x-a\":\"ok\",\"x-b\":1}", "/x-b: type: expected string, got integer"},
    {"min/maxProperties", "{\"minProperties\":2}", "{\"a\":1}",
     "(root): minProperties: 1 property, fewer than 2"},
    /* items */
    {"items: schema", "{\"items\":{\"type\":\"string\"}}", "[\"a\",2,\"c\"]",
     "/1: type: expected string, got integer"},
    {"items: array form", "{\"items\":[{\"type\":\"string\"},{\"type\":\"number\"}]}",
     "[\"a\",\"b\",true]", "/1: type: expected number, got string"},
    {"items: array form with additionalItems false",
     "{\"items\":[{\"type\":\"string\"}],\"additionalItems\":false}", "[\"a\",1]",
     "/1: false: no value is allowed here (the schema is false)"},
    {"prefixItems", "{\"prefixItems\":[{\"const\":1}],\"items\":{\"type\":\"string\"}}",
     "[1,\"x\",2]", "/2: type: expected string, got integer"},
    {"minItems", "{\"minItems\":2}", "[1]", "(root): minItems: 1 item, fewer than 2"},
    {"maxItems", "{\"maxItems\":1}", "[1,2]", "(root): maxItems: 2 items, more than 1"},
    {"uniqueItems: 1 equals 1.0", "{\"uniqueItems\":true}", "[1,2,1.0]",
     "(root): uniqueItems: items 0 and 2 are equal"},
    {"uniqueItems: distinct objects", "{\"uniqueItems\":true}", "[{\"a\":1},{\"a\":2}]", NULL},
    {"contains", "{\"contains\":{\"const\":\"x\"}}", "[\"a\",\"b\"]",
     "(root): contains: no item matches the schema in 'contains'"},
    /* enum, const */
    {"enum: found", "{\"enum\":[\"low\",\"medium\",\"high\"]}", "\"high\"", NULL},
    {"enum: missing", "{\"enum\":[\"low\",\"high\"]}", "\"mid\"",
     "(root): enum: \"mid\" is not one of [\"low\",\"high\"]"},
    {"enum: numbers by value", "{\"enum\":[1,2]}", "2.0", NULL},
    {"const", "{\"const\":{\"a\":[1]}}", "{\"a\":[2]}",
     "(root): const: expected {\"a\":[1]}, got {\"a\":[2]}"},
    /* strings */
    {"pattern", "{\"pattern\":\"^T-[0-9]{4}$\"}", "\"T-12\"",
     "(root): pattern: \"T-12\" does not match /^T-[0-9]{4}$/"},
    {"pattern: searched, not anchored", "{\"pattern\":\"[0-9]\"}", "\"ab3\"", NULL},
    {"pattern: a slashed pattern is plain", "{\"pattern\":\"/a/\"}", "\"x/a/y\"", NULL},
    {"minLength counts characters", "{\"minLength\":3}", "\"\u00e9\u00e9\"",
     "(root): minLength: \"\u00e9\u00e9\" has 2 characters, fewer than 3"},
    {"maxLength", "{\"maxLength\":2}", "\"abc\"",
     "(root): maxLength: \"abc\" has 3 characters, more than 2"},
    {"string keywords ignore other types", "{\"minLength\":5,\"pattern\":\"x\"}", "12", NULL},
    /* numbers */
    {"minimum", "{\"minimum\":1}", "0", "(root): minimum: 0 is less than 1"},
    {"minimum: equal passes", "{\"minimum\":1}", "1", NULL},
    {"maximum", "{\"maximum\":10}", "10.5", "(root): maximum: 10.5 is greater than 10"},
    {"exclusiveMinimum", "{\"exclusiveMinimum\":0}", "0",
     "(root): exclusiveMinimum: 0 is not greater than 0"},
    {"exclusiveMaximum", "{\"exclusiveMaximum\":5}", "5",
     "(root): exclusiveMaximum: 5 is not less than 5"},
    {"draft 4 boolean exclusiveMinimum", "{\"minimum\":2,\"exclusiveMinimum\":true}", "2",
     "(root): exclusiveMinimum: 2 is not greater than 2"},
    {"multipleOf", "{\"multipleOf\":0.5}", "1.25",
     "(root): multipleOf: 1.25 is not a multiple of 0.5"},
    /* combinators */
    {"allOf reports each failure", "{\"allOf\":[{\"type\":\"string\"},{\"minLength\":2}]}", "\"a\"",
     "(root): minLength: \"a\" has 1 character, fewer than 2"},
    {"anyOf: one matches", "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"}]}", "1", NULL},
    {"anyOf: none", "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"number\"}]}", "true",
     "(root): anyOf: matches none of the 2 schemas"},
    {"oneOf: two match", "{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":0}]}", "3",
     "(root): oneOf: matches schemas 0 and 1, exactly one expected"},
    {"oneOf: exactly one", "{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}", "3", NULL},
    {"not", "{\"not\":{\"type\":\"null\"}}", "null", "(root): not: matches the schema in 'not'"},
    {"boolean schema true", "true", "{\"anything\":1}", NULL},
    {"boolean schema false", "false", "1",
     "(root): false: no value is allowed here (the schema is false)"},
    /* $ref */
    {"$ref to definitions",
     "{\"definitions\":{\"id\":{\"type\":\"string\",\"pattern\":\"^c[0-9]+$\"}},"
     "\"properties\":{\"call_id\":{\"$ref\":\"#/definitions/id\"}}}",
     "{\"call_id\":\"x1\"}", "/call_id: pattern: \"x1\" does not match /^c[0-9]+$/"},
    {"$ref to $defs, recursive tree",
     "{\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"kids\":{\"type\":\"array\","
     "\"items\":{\"$ref\":\"#/$defs/node\"}}},\"required\":[\"name\"]}},"
     "\"$ref\":\"#/$defs/node\"}",
     "{\"name\":\"a\",\"kids\":[{\"name\":\"b\",\"kids\":[{}]}]}",
     "/kids/0/kids/0: required: missing property 'name'"},
    {"$ref to the root", "{\"properties\":{\"next\":{\"$ref\":\"#\"}},\"type\":\"object\"}",
     "{\"next\":{\"next\":3}}", "/next/next: type: expected object, got integer"},
    {"$ref loop is an error, not a hang",
     "{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},"
     "\"b\":{\"$ref\":\"#/$defs/a\"}},\"$ref\":\"#/$defs/a\"}",
     "1",
     "(root): $ref: '#/$defs/a' leads back to itself without going into the value (a "
     "reference loop)"},
    {"$ref with percent-escape",
     "{\"$defs\":{\"a b\":{\"type\":\"string\"}},"
     "\"$ref\":\"#/$defs/a%20b\"}",
     "1", "(root): type: expected string, got integer"},
    /* ignored keywords */
    {"format and annotations are ignored",
     "{\"format\":\"email\",\"title\":\"t\",\"description\":\"d\",\"x-custom\":1}",
     "\"not an email\"", NULL},
    /* several errors */
    {"every failure is listed",
     "{\"type\":\"object\",\"required\":[\"a\",\"b\"],"
     "\"properties\":{\"c\":{\"type\":\"string\"}}}",
     "{\"c\":1}",
     "(root): required: missing property 'a'; (root): required: missing property 'b'; /c: "
     "type: expected string, got integer"},
};

static json_t *parse(const char *s)
{
    json_error_t je;
    json_t *j = json_loads(s, JSON_DECODE_ANY, &je);
    if (!j)
        fail_msg("bad JSON in the table: %s: %s", s, je.text);
    return j;
}

static void test_validate(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof valid_cases / sizeof *valid_cases; i++) {
        const struct vcase *c = &valid_cases[i];
        json_t *schema = parse(c->schema), *inst = parse(c->instance);
        struct an_jschema *s = NULL;
        char why[512] = "";
        if (an_jschema_compile(&s, schema, why, sizeof why))
            fail_msg("%s: the schema does not compile: %s", c->title, why);
        struct an_jschema_errors errs = {0};
        size_t n = an_jschema_validate(s, inst, &errs);
        struct an_buf got = AN_BUF_INIT;
        for (size_t k = 0; k < errs.n; k++) {
            if (k)
                an_buf_puts(&got, "; ");
            an_jschema_error_format(&errs.v[k], &got);
        }
        if (!c->want && n)
            fail_msg("%s: expected valid, got %zu errors: %s", c->title, n, an_buf_cstr(&got));
        if (c->want && strcmp(c->want, an_buf_cstr(&got)))
            fail_msg("%s:\n  want: %s\n  got:  %s", c->title, c->want, an_buf_cstr(&got));
        /* the verdict alone, without a list, agrees */
        assert_int_equal(an_jschema_validate(s, inst, NULL) == 0, c->want == NULL);
        an_buf_release(&got);
        an_jschema_errors_release(&errs);
        an_jschema_free(s);
        json_decref(schema);
        json_decref(inst);
    }
}

struct bad_case {
    const char *schema;
    const char *why;
};

static const struct bad_case bad_schemas[] = {
    {"3", "at the top: a schema must be an object or a boolean, not number"},
    {"{\"type\":\"strng\"}",
     "at the top: unknown type 'strng' (one of: object, array, string, number, integer, boolean, "
     "null)"},
    {"{\"type\":[]}", "at the top: 'type' must be a type name or a non-empty list of them"},
    {"{\"properties\":{\"a\":{\"minimum\":\"1\"}}}",
     "at /properties/a: 'minimum' must be a number"},
    {"{\"minLength\":-1}", "at the top: 'minLength' must be a whole number, 0 or more"},
    {"{\"required\":\"a\"}", "at the top: 'required' must be a list of property names"},
    {"{\"required\":[1]}", "at the top: 'required' must hold strings, not number"},
    {"{\"pattern\":\"(\"}", NULL}, /* PCRE2's words */
    {"{\"items\":[{\"type\":1}]}", "at /items/0: 'type' must be a type name or a non-empty list "
                                   "of them"},
    {"{\"anyOf\":[]}", "at the top: 'anyOf' must be a non-empty list of schemas"},
    {"{\"not\":[]}", "at /not: a schema must be an object or a boolean, not array"},
    {"{\"$ref\":\"#/definitions/nope\"}",
     "at the top: '$ref' '#/definitions/nope' points at nothing in this schema"},
    {"{\"$ref\":\"other.json#/a\"}",
     "at the top: '$ref' 'other.json#/a': only references inside this schema (\"#\" or "
     "\"#/path/to/it\") are supported"},
    {"{\"$defs\":{\"n\":3},\"$ref\":\"#/$defs/n\"}",
     "at the top: '$ref' '#/$defs/n' points at number, not a schema"},
    {"{\"$defs\":{\"n\":3}}", "at /$defs/n: a schema must be an object or a boolean, not number"},
    {"{\"enum\":1}", "at the top: 'enum' must be a list of values"},
    {"{\"multipleOf\":0}", "at the top: 'multipleOf' must be a number greater than 0"},
    {"{\"uniqueItems\":1}", "at the top: 'uniqueItems' must be true or false"},
    {"{\"additionalProperties\":1}",
     "at /additionalProperties: a schema must be an object or a boolean, not number"},
};

static void test_bad_schemas(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_schemas / sizeof *bad_schemas; i++) {
        json_t *schema = parse(bad_schemas[i].schema);
        struct an_jschema *s = NULL;
        char why[512] = "";
        int rc = an_jschema_compile(&s, schema, why, sizeof why);
        if (!rc)
            fail_msg("%s: compiled, expected an error", bad_schemas[i].schema);
        assert_null(s);
        if (bad_schemas[i].why && strcmp(bad_schemas[i].why, why))
            fail_msg("%s:\n  want: %s\n  got:  %s", bad_schemas[i].schema, bad_schemas[i].why, why);
        if (!bad_schemas[i].why)
            assert_non_null(strstr(why, "'pattern': invalid regex '('"));
        json_decref(schema);
    }
}

static void test_keeps_a_few_counts_all(void **state)
{
    (void)state;
    json_t *schema = parse("{\"items\":{\"type\":\"string\"}}");
    json_t *inst = json_array();
    for (int i = 0; i < 20; i++)
        json_array_append_new(inst, json_integer(i));
    struct an_jschema *s = NULL;
    char why[256];
    assert_int_equal(an_jschema_compile(&s, schema, why, sizeof why), 0);
    struct an_jschema_errors errs = {0};
    assert_int_equal(an_jschema_validate(s, inst, &errs), 20);
    assert_int_equal(errs.n, AN_JSCHEMA_KEEP);
    assert_int_equal(errs.total, 20);
    assert_string_equal(errs.v[7].where, "/7");
    an_jschema_errors_release(&errs);
    an_jschema_free(s);
    json_decref(schema);
    json_decref(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_bad_schemas),
        cmocka_unit_test(test_keeps_a_few_counts_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
