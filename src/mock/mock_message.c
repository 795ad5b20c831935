#include "mock_message.h"

#include <stdbool.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

const char *mock_message_text(const json_t *msg, size_t *len, char **owned)
{
    const json_t *content = json_object_get(msg, "content");
    *owned = NULL;
    *len = 0;
    if (json_is_string(content)) {
        *len = json_string_length(content);
        return json_string_value(content);
    }
    if (!json_is_array(content))
        return "";
    struct an_buf b = AN_BUF_INIT;
    size_t i;
    const json_t *part;
    bool first = true;
    json_array_foreach(content, i, part)
    {
        const char *type = an_json_str(part, "type");
        const json_t *text = json_object_get(part, "text");
        if (!type || strcmp(type, "text") != 0 || !json_is_string(text))
            continue;
        if (!first)
            an_buf_putc(&b, '\n');
        an_buf_append(&b, json_string_value(text), json_string_length(text));
        first = false;
    }
    *owned = an_buf_detach(&b, len);
    return *owned;
}
