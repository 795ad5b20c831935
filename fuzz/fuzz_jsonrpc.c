/*
 * JSON-RPC frames as ACP agents and MCP servers send them
 * (proto/jsonrpc.h): the input is what the peer wrote on its stdout, read
 * through a pipe by the real fd peer (framing, trimming, the frame cap,
 * classification, id matching). Peer requests are answered; responses
 * are read as MCP reads them: an InitializeResult check
 * (an_mcp_check_init) and a tools/call answer (an_mcp_record_call).
 * The first byte chooses a small frame cap (oversize closes) or the default.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/transcript.h"
#include "fuzz.h"
#include "proto/jsonrpc.h"
#include "proto/mcp.h"

static int devnull = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    return 0;
}

static void on_request(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)ud;
    if (m->method && !strcmp(m->method, "fail"))
        an_rpc_reply_error(rpc, m->id, AN_RPC_INVALID_PARAMS, "no", m->params, NULL);
    else
        an_rpc_reply(rpc, m->id, m->params, NULL);
}

static void on_response(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)ud;
    (void)rpc;
    char why[256];
    if (m->result)
        (void)an_mcp_check_init(m->result, why, sizeof why);
    struct an_tool_call c = {0};
    free(an_mcp_record_call(&c, m->result, m->error, 1));
    json_decref(c.result);
    free(c.status);
}

static void on_close(void *ud, struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *why)
{
    (void)rpc;
    (void)kind;
    if (!why)
        abort();
    *(int *)ud += 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || devnull < 0)
        return 0;
    size_t max_frame = data[0] & 1 ? 256 : 0;
    data++;
    size--;
    int fd[2];
    if (pipe(fd))
        return 0;
    fcntl(fd[1], F_SETFL, O_NONBLOCK);
    /* the whole input must fit in the pipe: -max_len is far below 64 KiB */
    size_t put = 0;
    while (put < size) {
        ssize_t w = write(fd[1], data + put, size - put);
        if (w <= 0)
            break;
        put += (size_t)w;
    }
    close(fd[1]);
    int closed = 0;
    struct an_rpc_cbs cbs = {
        .ud = &closed, .on_request = on_request, .on_response = on_response, .on_close = on_close};
    struct an_rpc_opts o = AN_RPC_OPTS_INIT;
    o.max_frame = max_frame;
    struct an_rpc *rpc;
    struct an_err err = AN_ERR_INIT;
    if (an_rpc_new_fds(&rpc, fd[0], devnull, &o, &cbs, &err) == 0) {
        int64_t id;
        an_rpc_request(rpc, "initialize", NULL, &id, NULL); /* so id 0 is known */
        an_rpc_pump(rpc, 2000, NULL);
        if (an_rpc_is_open(rpc) || closed != 1)
            abort(); /* EOF must close it, and close is reported once */
        an_rpc_free(rpc);
    }
    close(fd[0]);
    return 0;
}
