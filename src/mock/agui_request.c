#include "agui_request.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

static void user_text(struct agui_request *rq, const json_t *msg)
{
    const json_t *content = json_object_get(msg, "content");
    if (json_is_string(content)) {
        rq->view.user_text = json_string_value(content);
        rq->view.user_text_len = json_string_length(content);
        return;
    }
    if (!json_is_array(content))
        return;
    struct an_buf b = AN_BUF_INIT;
    size_t i;
    const json_t *part;
    bool first = true;
    json_array_foreach(content, i, part) {
        const char *type = an_json_str(part, "type");
        const json_t *text = json_object_get(part, "text");
        if (!type || strcmp(type, "text") != 0 || !json_is_string(text))
            continue;
        if (!first)
            an_buf_putc(&b, '\n');
        an_buf_append(&b, json_string_value(text), json_string_length(text));
        first = false;
    }
    rq->text_owned = an_buf_detach(&b, &rq->view.user_text_len);
    rq->view.user_text = rq->text_owned;
}

void agui_request_read(struct agui_request *rq, const json_t *body, const char *path)
{
    memset(rq, 0, sizeof *rq);
    rq->view.path = path;
    rq->view.user_text = "";
    rq->view.connect = true;
    rq->thread_id = an_json_str(body, "threadId");
    if (!rq->thread_id)
        rq->thread_id = "mock-thread";
    rq->run_id = an_json_str(body, "runId");
    const json_t *msgs = json_object_get(body, "messages");
    size_t n = json_array_size(msgs);
    if (n == 0)
        return;
    const char *last_role = an_json_str(json_array_get(msgs, n - 1), "role");
    rq->view.connect = !last_role || strcmp(last_role, "user") != 0;
    for (size_t i = n; i-- > 0;) {
        const json_t *m = json_array_get(msgs, i);
        const char *role = an_json_str(m, "role");
        if (role && strcmp(role, "user") == 0) {
            user_text(rq, m);
            return;
        }
    }
}

void agui_request_release(struct agui_request *rq)
{
    free(rq->text_owned);
    rq->text_owned = NULL;
}
