/*
 * JSON Schema validation, pure: no I/O, no clock, no network.
 *
 * The subset every common draft (4, 6, 7, 2019-09, 2020-12) agrees on:
 * type (integer included; 1.0 is an integer), properties, required,
 * additionalProperties (bool or schema), patternProperties, items (a schema,
 * or the array form with additionalItems), prefixItems, contains, enum,
 * const, pattern, minLength/maxLength (in characters), minimum/maximum,
 * exclusiveMinimum/exclusiveMaximum (numbers, or draft 4's booleans),
 * multipleOf, minItems/maxItems, uniqueItems, minProperties/maxProperties,
 * allOf/anyOf/oneOf/not, and $ref to "#" or "#/json/pointer" inside the same
 * document (definitions and $defs are only places to point at). `format`,
 * annotations (title, description, default, examples, $comment, $schema,
 * $id) and keywords this validator does not know are ignored, as the
 * specification says. $ref applies together with its sibling keywords
 * (2019-09 onwards). Values compare by JSON value: 1 equals 1.0.
 *
 * A schema is compiled once (an_jschema_compile), which checks it whole:
 * every keyword's type, every pattern (PCRE2, compiled here once), every
 * $ref resolving. A schema that compiles never fails in an unexpected way
 * later; a reference loop that consumes no instance is a validation error,
 * not a hang.
 *
 * Errors name the JSON pointer of the failing instance ("" is the whole
 * document) and the keyword.
 *
 * Ownership: the compiled schema holds a reference to `schema`; free it with
 * an_jschema_free(). Error lists own their strings (an_jschema_errors_release).
 */
#ifndef ANANKE_CORE_JSONSCHEMA_H
#define ANANKE_CORE_JSONSCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"

struct an_jschema;

/* Compile `schema` (an object or a boolean). On failure returns -1 and
 * writes into why[0..cap) what is wrong and where in the schema
 * ("at /properties/qty: 'minimum' must be a number"); *out is NULL. */
int an_jschema_compile(struct an_jschema **out, const json_t *schema, char *why, size_t cap);
void an_jschema_free(struct an_jschema *s); /* NULL-safe */

#define AN_JSCHEMA_KEEP 8 /* errors kept per validation; the rest are counted */

struct an_jschema_error {
    char *where;         /* JSON pointer of the failing instance; "" = the whole document */
    const char *keyword; /* static: "type", "required", ... */
    char *msg;           /* "expected integer, got string" */
};

struct an_jschema_errors {
    struct an_jschema_error v[AN_JSCHEMA_KEEP];
    size_t n;     /* kept */
    size_t total; /* found (>= n) */
};

/* Validate `instance`; returns the number of errors (0: valid). `errs` may
 * be NULL (only the verdict is wanted); otherwise it must start zeroed and
 * be released with an_jschema_errors_release(). */
size_t an_jschema_validate(const struct an_jschema *s, const json_t *instance,
                           struct an_jschema_errors *errs);
void an_jschema_errors_release(struct an_jschema_errors *errs);

/* One error as text: "/items/0: minimum: 0 is less than 1", the whole
 * document shown as "(root)". Appended to b. */
void an_jschema_error_format(const struct an_jschema_error *e, struct an_buf *b);

#endif
