/*
 * `ananke-mock mcp`: MCP 2026-07-28's subscriptions/listen. A listen
 * request opens a subscription for the change notifications its params
 * name (`notifications`: {"toolsListChanged": true, "promptsListChanged":
 * true, "resourcesListChanged": true}). Its stream starts with
 * notifications/subscriptions/acknowledged; every notification on it
 * carries the subscription's id in params._meta
 * ["io.modelcontextprotocol/subscriptionId"]; the kit's trigger tools
 * (test_trigger_tool_change, test_trigger_prompt_change) publish a list
 * change to every subscription that asked for it. Over HTTP the stream is
 * the listen POST's answer; it ends, with the listen request's result,
 * after --listen-ms or MCP_LISTEN_MAX_NOTES notifications, or when the
 * client goes. Over stdio the notifications go on stdout as they come and
 * notifications/cancelled (or the end of stdin) ends the subscription.
 * The faults listen-no-ack, listen-untagged, listen-unfiltered and
 * list-changed-silent break these rules.
 *
 * Ownership: the hub is the server's (mcp_hub_new, mcp_hub_free once no
 * transport uses it); a subscription is the hub's until its stream ends.
 */
#ifndef ANANKE_MOCK_MCP_LISTEN_H
#define ANANKE_MOCK_MCP_LISTEN_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdint.h>

#include "mcp_server.h"
#include "mock_http.h"

#define MCP_LISTEN_MS_DEFAULT 30000 /* --listen-ms: how long a listen stream stays open */
#define MCP_LISTEN_MAX_NOTES 64     /* notifications on one listen stream before it ends */
#define MCP_SUBSCRIPTION_ID_META "io.modelcontextprotocol/subscriptionId"

enum mcp_change { MCP_CHANGE_TOOLS, MCP_CHANGE_PROMPTS, MCP_CHANGE_RESOURCES };

struct mcp_hub *mcp_hub_new(int64_t listen_ms);
void mcp_hub_free(struct mcp_hub *h);

/* A list change: its notification queued on every subscription that asked
 * for it (every one under listen-unfiltered; none under
 * list-changed-silent). NULL-safe. */
void mcp_hub_publish(struct mcp_hub *h, const struct mcp_server_opts *o, enum mcp_change what);

/* subscriptions/listen over HTTP: `listen` is the request (its _meta
 * already checked); the answer is its stream. */
enum MHD_Result mcp_listen_http(struct mcp_hub *h, const struct mcp_server_opts *o,
                                struct mock_http *http, struct MHD_Connection *c,
                                const json_t *listen);

/* subscriptions/listen over stdio: the subscription opened and its
 * acknowledgement appended to out; mcp_hub_drain() then gives what it
 * gets. mcp_hub_cancel() ends the subscription of a listen request id. */
void mcp_listen_stdio(struct mcp_hub *h, const struct mcp_server_opts *o, const json_t *listen,
                      json_t *out);
/* The notifications queued for stdio subscriptions, appended to out. */
void mcp_hub_drain(struct mcp_hub *h, json_t *out);
void mcp_hub_cancel(struct mcp_hub *h, const json_t *listen_id);

#endif
