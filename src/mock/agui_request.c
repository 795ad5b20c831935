#include "agui_request.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "mock_message.h"

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
            rq->view.user_text = mock_message_text(m, &rq->view.user_text_len, &rq->text_owned);
            return;
        }
    }
}

void agui_request_release(struct agui_request *rq)
{
    free(rq->text_owned);
    rq->text_owned = NULL;
}
