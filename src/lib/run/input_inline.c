/* seed 002's -i "Hello": an inline message as a JSONL case line
 * (include/ananke/input.h). */
#include <string.h>

#include "ananke/input.h"
#include "core/json.h"

char *an_inline_case(const char *msg, const char *id)
{
    json_t *c = json_object();
    json_object_set_new(c, "id", json_string(id));
    json_object_set_new(c, "input", an_json_lossy(msg, strlen(msg)));
    char *line = an_json_compact(c);
    json_decref(c);
    return line;
}
