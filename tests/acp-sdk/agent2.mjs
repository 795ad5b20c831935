#!/usr/bin/env node
// A scripted ACP agent on @agentclientprotocol/sdk 2.x (tests/acp-sdk/package.json).
// The 2.x packages no longer ship dist/examples, so this plays the turn the 1.9
// example agent (dist/examples/agent.js) plays, with the same titles, kinds and
// texts, through the 2.x app API (acp.agent().onRequest(...).connect(stream),
// ctx.client.notify / request): the same suites (allow/, deny/) run against both.
// Every byte on the wire is the 2.x SDK's; nothing here speaks JSON-RPC by hand.
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";

const sessions = new Map();
// The "model" thinks 1 s between steps, as the 1.9 example does (so a cancel
// sent 300 ms into a turn lands mid-turn); ANANKE_AGENT_PAUSE_MS changes it.
const PAUSE_MS = Number(process.env.ANANKE_AGENT_PAUSE_MS ?? 1000);
const pause = (signal) =>
  new Promise((resolve, reject) =>
    setTimeout(() => (signal.aborted ? reject(new Error("cancelled")) : resolve()), PAUSE_MS));

async function turn(sessionId, signal, client) {
  const update = (u) => client.notify(acp.methods.client.session.update, { sessionId, update: u });
  const say = (text) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  await say("I'll help you with that. Let me start by reading some files to understand the current situation.");
  await pause(signal);
  await update({
    sessionUpdate: "tool_call", toolCallId: "call_1", title: "Reading project files",
    kind: "read", status: "pending", locations: [{ path: "/project/README.md" }],
    rawInput: { path: "/project/README.md" },
  });
  await pause(signal);
  const readme = "# My Project\n\nThis is a sample project...";
  await update({
    sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "completed",
    content: [{ type: "content", content: { type: "text", text: readme } }],
    rawOutput: { content: readme },
  });
  await pause(signal);
  await say(" Now I understand the project structure. I need to make some changes to improve it.");
  await pause(signal);
  const edit = {
    toolCallId: "call_2", title: "Modifying critical configuration file", kind: "edit",
    status: "pending", locations: [{ path: "/project/config.json" }],
    rawInput: { path: "/project/config.json", content: '{"database": {"host": "new-host"}}' },
  };
  await update({ sessionUpdate: "tool_call", ...edit });
  // the permission request names the file by another path, as 1.9's does
  const asked = "/home/user/project/config.json";
  const answer = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { ...edit, locations: [{ path: asked }], rawInput: { ...edit.rawInput, path: asked } },
    options: [
      { kind: "allow_once", name: "Allow this change", optionId: "allow" },
      { kind: "reject_once", name: "Skip this change", optionId: "reject" },
    ],
  });
  if (answer.outcome.outcome === "cancelled") return;
  if (answer.outcome.optionId === "allow") {
    await update({
      sessionUpdate: "tool_call_update", toolCallId: "call_2", status: "completed",
      rawOutput: { success: true, message: "Configuration updated" },
    });
    await pause(signal);
    await say(" Perfect! I've successfully updated the configuration. The changes have been applied.");
  } else if (answer.outcome.optionId === "reject") {
    await pause(signal);
    await say(" I understand you prefer not to make that change. I'll skip the configuration update.");
  } else {
    throw new Error(`unexpected permission outcome ${JSON.stringify(answer.outcome)}`);
  }
}

acp
  .agent({ name: "ananke-sdk2-agent" })
  .onRequest("initialize", () => ({
    protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false },
  }))
  .onRequest("session/new", () => {
    const sessionId = Array.from(crypto.getRandomValues(new Uint8Array(16)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    sessions.set(sessionId, { pending: null });
    return { sessionId };
  })
  .onRequest("authenticate", () => ({}))
  .onRequest("session/prompt", async (ctx) => {
    const s = sessions.get(ctx.params.sessionId);
    if (!s) throw new Error(`session ${ctx.params.sessionId} not found`);
    s.pending?.abort();
    s.pending = new AbortController();
    const { signal } = s.pending;
    try {
      await turn(ctx.params.sessionId, signal, ctx.client);
    } catch (err) {
      if (signal.aborted) return { stopReason: "cancelled" };
      throw err;
    }
    s.pending = null;
    // A permission request answered "cancelled" ends the turn with end_turn,
    // as in the 1.9 example (ACP asks for "cancelled": the compliance suite's
    // optional.tool-calls.permission.cancel-on-cancel fails both, alike).
    return { stopReason: "end_turn" };
  })
  .onNotification("session/cancel", (ctx) => sessions.get(ctx.params.sessionId)?.pending?.abort())
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
