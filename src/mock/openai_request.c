#include "openai_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "mock_message.h"

size_t oai_count_words(const char *s, size_t n)
{
    size_t words = 0;
    bool in_word = false;
    for (size_t i = 0; i < n; i++) {
        bool space = s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' ||
                     s[i] == '\v';
        if (!space && !in_word)
            words++;
        in_word = !space;
    }
    return words;
}

/* The function name of the assistant tool call `id`, searching back from
 * message `before`; NULL when no earlier assistant message made that call. */
static const char *called_tool(const json_t *msgs, size_t before, const char *id)
{
    for (size_t i = before; i-- > 0;) {
        const json_t *m = json_array_get(msgs, i);
        const char *role = an_json_str(m, "role");
        if (!role || strcmp(role, "assistant") != 0)
            continue;
        size_t j;
        const json_t *call;
        json_array_foreach(json_object_get(m, "tool_calls"), j, call)
        {
            const char *cid = an_json_str(call, "id");
            if (cid && !strcmp(cid, id))
                return an_json_str(json_object_get(call, "function"), "name");
        }
    }
    return NULL;
}

int oai_request_read(struct oai_request *rq, const json_t *body, struct oai_request_error *why)
{
    memset(rq, 0, sizeof *rq);
    rq->view.user_text = "";
    rq->view.turn = OAI_TURN_OTHER;
    rq->view.model = an_json_str(body, "model");
    rq->stream = json_is_true(json_object_get(body, "stream"));
    rq->include_usage =
        json_is_true(json_object_get(json_object_get(body, "stream_options"), "include_usage"));
    const json_t *msgs = json_object_get(body, "messages");
    why->param = "messages";
    if (!msgs) {
        snprintf(why->message, sizeof why->message, "Missing required parameter: 'messages'.");
        why->code = "missing_required_parameter";
        return -1;
    }
    if (!json_is_array(msgs)) {
        snprintf(why->message, sizeof why->message,
                 "Invalid type for 'messages': expected an array, but got %s instead.",
                 an_json_type_name(msgs));
        why->code = "invalid_type";
        return -1;
    }
    size_t n = json_array_size(msgs);
    if (n == 0) {
        snprintf(why->message, sizeof why->message,
                 "Invalid 'messages': empty array. Expected an array with minimum length 1, "
                 "but got an empty array instead.");
        why->code = "empty_array";
        return -1;
    }
    bool have_user = false;
    for (size_t i = n; i-- > 0;) {
        const json_t *m = json_array_get(msgs, i);
        const char *role = an_json_str(m, "role");
        size_t len;
        char *owned;
        const char *text = mock_message_text(m, &len, &owned);
        rq->prompt_words += oai_count_words(text, len);
        if (!have_user && role && !strcmp(role, "user")) {
            have_user = true;
            rq->view.user_text = text;
            rq->view.user_text_len = len;
            rq->text_owned = owned;
        } else {
            free(owned);
        }
    }
    const json_t *last = json_array_get(msgs, n - 1);
    const char *role = an_json_str(last, "role");
    if (role && !strcmp(role, "user")) {
        rq->view.turn = OAI_TURN_USER;
    } else if (role && !strcmp(role, "tool")) {
        rq->view.turn = OAI_TURN_TOOL;
        const char *id = an_json_str(last, "tool_call_id");
        rq->view.tool_name = id ? called_tool(msgs, n - 1, id) : NULL;
    } else if (role && !strcmp(role, "function")) {
        /* the deprecated function-calling form names the function itself */
        rq->view.turn = OAI_TURN_TOOL;
        rq->view.tool_name = an_json_str(last, "name");
    }
    return 0;
}

void oai_request_release(struct oai_request *rq)
{
    free(rq->text_owned);
    rq->text_owned = NULL;
}
