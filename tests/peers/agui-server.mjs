// A scripted AG-UI agent built on the official SDK: every event is a real
// @ag-ui/core event object, checked against the SDK's own zod schema and
// written as the exact bytes of @ag-ui/encoder's EventEncoder. ananke's
// client is tested against it by tests/peers/run.sh.
//
// usage: node agui-server.mjs [PORT] [--port-file FILE] [--requests FILE]
//   PORT          port on 127.0.0.1 (default 0: a free port)
//   --port-file   once listening, the port is written there (temp + rename)
//   --requests    each RunAgentInput received is appended there, one JSON a line
// Prints "http://127.0.0.1:PORT" on stdout once listening; exits on SIGTERM/SIGINT.
//
// Every POST (any path) is a run. The body is validated with the SDK's
// RunAgentInputSchema (422 with the zod issues if it does not pass); the
// answer is picked by the last user message, like examples/mock/scenario.yaml.
import { createServer } from "node:http";
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { EventType, PROTOCOL_VERSION } from "@ag-ui/core";
import { EventSchemas, RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";

function parseArgs(argv) {
  const o = { port: 0, portFile: null, requests: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--port-file") o.portFile = argv[++i];
    else if (a === "--requests") o.requests = argv[++i];
    else if (/^\d+$/.test(a)) o.port = Number(a);
    else {
      process.stderr.write(`agui-server: unknown argument '${a}'\n`);
      process.exit(2);
    }
  }
  return o;
}

// ---- the script ----------------------------------------------------------
// A rule's `events(ids)` returns the events between RUN_STARTED and the
// terminal event; `error` (a RUN_ERROR's fields) ends the run instead of
// RUN_FINISHED; `outcome` is RUN_FINISHED's outcome; `start` holds more
// RUN_STARTED fields.

function text(messageId, parts) {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
    ...parts.map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })),
    { type: EventType.TEXT_MESSAGE_END, messageId },
  ];
}

// A backend tool: START, ARGS in pieces, END, then its RESULT.
function tool(toolCallId, toolCallName, args, result, parentMessageId) {
  const json = JSON.stringify(args);
  const cut = Math.max(1, Math.floor(json.length / 2));
  const ev = [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName, parentMessageId },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: json.slice(0, cut) },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: json.slice(cut) },
    { type: EventType.TOOL_CALL_END, toolCallId },
  ];
  if (result !== undefined)
    ev.push({
      type: EventType.TOOL_CALL_RESULT,
      messageId: `${toolCallId}-result`,
      toolCallId,
      content: typeof result === "string" ? result : JSON.stringify(result),
      role: "tool",
    });
  return ev;
}

const rules = [
  {
    match: /checkout/i,
    events: (id) => [
      ...text(id("msg"), ["Let me check ", "your cart."]),
      ...tool(id("call"), "validate_cart", { cart_id: "cart_42" }, { valid: true, items: 2 }),
      ...tool(id("call"), "get_shipping_options", { cart_id: "cart_42" },
        { options: [{ id: "std", price: 4.99 }, { id: "express", price: 12.5 }] }),
      ...text(id("msg"), ["Your cart is valid. ", "Shipping: standard (4.99) or express (12.50)."]),
    ],
  },
  {
    match: /first shipping option/i,
    events: (id) => [
      ...tool(id("call"), "calculate_total", { shipping: "std" }, { total: 54.99, currency: "EUR" }),
      ...text(id("msg"), ["Your total is 54.99 EUR. ", "Shall I charge your card?"]),
    ],
  },
  {
    match: /confirm and pay/i,
    events: (id) => [
      ...tool(id("call"), "charge_card", { amount: 54.99, card: { last4: "4242" } },
        { status: "approved", ref: "ch_1" }),
      ...text(id("msg"), ["Payment approved. ", "Reference ch_1."]),
    ],
  },
  {
    // text only, with multibyte characters in the deltas
    match: /2\+2/,
    events: (id) => [...text(id("msg"), ["2 + 2 = 4 ", "— naïve ", "arithmetic ✓"])],
  },
  {
    // a frontend tool: the agent asks the client to run it, never answers it
    // itself, and lists it as pending in the outcome (AG-UI 1.0)
    match: /delivery date/i,
    events: (id, st) => {
      const m = id("msg");
      st.pending = id("call");
      return [
        ...text(m, ["Please pick a date."]),
        ...tool(st.pending, "choose_delivery_date", { earliest: "2026-10-01", slots: ["am", "pm"] },
          undefined, m),
      ];
    },
    outcome: (st) => ({ type: "success", pendingToolCallIds: [st.pending] }),
  },
  {
    // the CHUNK forms: ids only on the first chunk, closed by the next event
    match: /running shoes|hiking boots/i,
    events: (id) => {
      const m1 = id("msg"), c = id("call"), m2 = id("msg");
      return [
        { type: EventType.TEXT_MESSAGE_CHUNK, messageId: m1, role: "assistant", delta: "Searching " },
        { type: EventType.TEXT_MESSAGE_CHUNK, delta: "the catalogue" },
        { type: EventType.TEXT_MESSAGE_CHUNK, delta: "…" },
        { type: EventType.TOOL_CALL_CHUNK, toolCallId: c, toolCallName: "search_products",
          parentMessageId: m1, delta: '{"query":"run' },
        { type: EventType.TOOL_CALL_CHUNK, toolCallId: c, delta: 'ning shoes","filters":{"size":' },
        { type: EventType.TOOL_CALL_CHUNK, delta: "42}}" },
        { type: EventType.TOOL_CALL_RESULT, messageId: `${c}-result`, toolCallId: c,
          content: JSON.stringify({ hits: 3 }), role: "tool" },
        { type: EventType.TEXT_MESSAGE_CHUNK, messageId: m2, delta: "I found 3 pairs " },
        { type: EventType.TEXT_MESSAGE_CHUNK, messageId: m2, delta: "of running shoes." },
      ];
    },
  },
  {
    // the run fails mid-message: RUN_ERROR closes everything, no RUN_FINISHED
    match: /overload/i,
    events: (id) => {
      const m = id("msg");
      return [
        { type: EventType.TEXT_MESSAGE_START, messageId: m, role: "assistant" },
        { type: EventType.TEXT_MESSAGE_CONTENT, messageId: m, delta: "Working on it" },
      ];
    },
    error: { message: "model overloaded, retry later", code: "overloaded" },
  },
];

// The requests of ananke's AG-UI compliance suite (compliance/agui) that ask
// the agent for something specific, answered from what the input carries:
// the tool it offers, its context, its state. Used by tests/comply/agui.sh.
rules.push(
  {
    // a frontend tool the input offers, named in the request: called with
    // arguments, never answered here, listed as pending (AG-UI 1.0)
    match: /call the (\w+) tool/i,
    events: (id, st, input, m) => {
      const offered = input.tools.find((t) => t.name === m[1]);
      if (!offered) return text(id("msg"), [`No tool called ${m[1]} was offered.`]);
      const msg = id("msg");
      st.pending = id("call");
      return [
        ...text(msg, ["Let me ask you to pick one."]),
        ...tool(st.pending, offered.name, { choices: ["red", "green", "blue"] }, undefined, msg),
      ];
    },
    outcome: (st) => (st.pending ? { type: "success", pendingToolCallIds: [st.pending] } : undefined),
  },
  {
    // the value of the context entry the request asks about
    match: /secret word/i,
    events: (id, st, input) => {
      const c = input.context.find((x) => /secret word/i.test(x.description));
      return text(id("msg"), [c ? c.value : "There is no secret word in my context."]);
    },
  },
  {
    // shared state: the state received as a snapshot, then a JSON Patch
    match: /increment ananke\.counter/i,
    events: (id, st, input) => {
      const state = input.state ?? {};
      const counter = state.ananke?.counter;
      if (typeof counter !== "number") return text(id("msg"), ["There is no ananke.counter."]);
      return [
        { type: EventType.STATE_SNAPSHOT, snapshot: state },
        { type: EventType.STATE_DELTA,
          delta: [{ op: "replace", path: "/ananke/counter", value: counter + 1 }] },
        ...text(id("msg"), [`The counter is now ${counter + 1}.`]),
      ];
    },
  },
);

// The requests of the suite's tests of features a producer may use or not
// (compliance/agui: they are NA on a producer that does not): a scripted
// failure, reasoning, an interrupt, a state delta, a subagent.
rules.push(
  {
    // required.run.error*: the run fails after a partial answer
    match: /ANANKE-FAIL/,
    events: (id) => text(id("msg"), ["Let me try."]),
    error: { message: "scripted failure (ANANKE-FAIL)", code: "ananke_fail" },
  },
  {
    // required.reasoning.*: a reasoning span holding one reasoning message
    match: /show your reasoning/i,
    events: (id) => {
      const span = id("reasoning"), m = id("msg");
      return [
        { type: EventType.REASONING_START, messageId: span },
        { type: EventType.REASONING_MESSAGE_START, messageId: m, role: "reasoning" },
        { type: EventType.REASONING_MESSAGE_CONTENT, messageId: m, delta: "Multiply, then check." },
        { type: EventType.REASONING_MESSAGE_END, messageId: m },
        { type: EventType.REASONING_END, messageId: span },
        ...text(id("msg"), ["Done."]),
      ];
    },
  },
  {
    // required.run.outcome-interrupt: stops for approval (AG-UI 1.0 outcome)
    match: /interrupt the run and ask for my approval/i,
    events: (id, st) => {
      st.interrupt = id("interrupt");
      return text(id("msg"), ["I need your approval first."]);
    },
    outcome: (st) => ({
      type: "interrupt",
      interrupts: [{ id: st.interrupt, reason: "confirmation", message: "Delete ananke.txt?" }],
    }),
  },
  {
    // required.state.delta-applies: the state received, then a patch of it
    match: /set ananke\.(\w+) to (\w+)/i,
    events: (id, st, input, m) => {
      const state = input.state ?? {};
      if (typeof state.ananke !== "object" || state.ananke === null)
        return text(id("msg"), ["There is no ananke state."]);
      return [
        { type: EventType.STATE_SNAPSHOT, snapshot: state },
        { type: EventType.STATE_DELTA, delta: [{ op: "replace", path: `/ananke/${m[1]}`, value: m[2] }] },
        ...text(id("msg"), [`${m[1]} is now ${m[2]}.`]),
      ];
    },
  },
  {
    // optional.run.protocol-version: RUN_STARTED declares the SDK's version
    match: /name one ocean/i,
    start: { protocolVersion: PROTOCOL_VERSION },
    events: (id) => text(id("msg"), ["Pacific."]),
  },
  {
    // required.steps.*: two named steps, each finished
    match: /work in named steps/i,
    events: (id) => [
      { type: EventType.STEP_STARTED, stepName: "plan" },
      { type: EventType.STEP_FINISHED, stepName: "plan" },
      { type: EventType.STEP_STARTED, stepName: "answer" },
      ...text(id("msg"), ["Done."]),
      { type: EventType.STEP_FINISHED, stepName: "answer" },
    ],
  },
  {
    // required.events.subagents: a subagent's message, attributed to it
    match: /delegate this to a subagent/i,
    events: (id) => {
      const sub = id("sub"), m = id("msg");
      return [
        { type: EventType.SUBAGENT_STARTED, subagentRunId: sub, name: "researcher" },
        { type: EventType.TEXT_MESSAGE_START, messageId: m, role: "assistant", subagentRunId: sub },
        { type: EventType.TEXT_MESSAGE_CONTENT, messageId: m, delta: "7", subagentRunId: sub },
        { type: EventType.TEXT_MESSAGE_END, messageId: m, subagentRunId: sub },
        { type: EventType.SUBAGENT_FINISHED, subagentRunId: sub },
        ...text(id("msg"), ["The subagent named 7."]),
      ];
    },
  },
);

// A run whose history ends with tool results: the client ran a frontend
// tool and sends what it returned; the agent carries on with it.
const afterTool = {
  events: (id, st, input) => {
    const last = input.messages[input.messages.length - 1];
    return text(id("msg"), [`Thanks, the tool returned: ${last.content}`]);
  },
};

const fallback = { events: (id) => text(id("msg"), ["I have no script for that."]) };

// ---- HTTP ----------------------------------------------------------------

function lastUserText(input) {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    const m = input.messages[i];
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    return m.content.filter((p) => p.type === "text").map((p) => p.text).join("\n");
  }
  return "";
}

function reply(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

let nrun = 0;

function run(req, res, input) {
  const n = ++nrun;
  let k = 0;
  const id = (kind) => `${kind}_${n}_${++k}`;
  const user = lastUserText(input);
  const last = input.messages[input.messages.length - 1];
  const rule =
    last?.role === "tool" ? afterTool : rules.find((r) => r.match.test(user)) ?? fallback;
  const st = {};

  const events = [
    { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId, ...rule.start },
    ...rule.events(id, st, input, rule.match?.exec(user)),
  ];
  if (rule.error) events.push({ type: EventType.RUN_ERROR, ...rule.error });
  else
    events.push({
      type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId,
      ...(rule.outcome?.(st) ? { outcome: rule.outcome(st) } : {}),
    });

  const encoder = new EventEncoder({ accept: req.headers.accept });
  const proto = encoder.getContentType() !== "text/event-stream";
  res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
  for (const e of events) {
    const event = { ...e, timestamp: Date.now() };
    // Our own script must be valid AG-UI before it tests anyone else.
    EventSchemas.parse(event);
    // The exact bytes of the reference encoder (SSE, or its protobuf frames
    // if the client asked for them: then the content type says so too).
    res.write(proto ? encoder.encodeBinary(event) : encoder.encode(event));
  }
  res.end();
}

function handle(req, res, opts) {
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    return reply(res, 405, { error: "only POST" });
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    let body;
    try {
      body = JSON.parse(raw);
    } catch (e) {
      return reply(res, 400, { error: `invalid JSON: ${e.message}` });
    }
    if (opts.requests)
      appendFileSync(opts.requests, JSON.stringify({ headers: req.headers, body }) + "\n");
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success)
      return reply(res, 422, { error: "not a RunAgentInput", issues: parsed.error.issues });
    try {
      run(req, res, parsed.data);
    } catch (e) {
      process.stderr.write(`agui-server: ${e.stack}\n`);
      if (!res.headersSent) reply(res, 500, { error: String(e.message) });
      else res.destroy(e);
    }
  });
}

const opts = parseArgs(process.argv.slice(2));
const server = createServer((req, res) => handle(req, res, opts));
server.listen(opts.port, "127.0.0.1", () => {
  const { port } = server.address();
  if (opts.portFile) {
    const tmp = `${opts.portFile}.tmp.${process.pid}`;
    writeFileSync(tmp, `${port}\n`);
    renameSync(tmp, opts.portFile);
  }
  process.stdout.write(`http://127.0.0.1:${port}\n`);
});
server.on("error", (e) => {
  process.stderr.write(`agui-server: ${e.message}\n`);
  process.exit(1);
});
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  });
}
