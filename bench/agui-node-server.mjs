// The benchmark's Node agent: the same instant run as bench/scenario.yaml
// (RUN_STARTED, a `search` tool call with its arguments and result, one text
// message, RUN_FINISHED), every event written as the bytes of the official
// @ag-ui/encoder's EventEncoder, one write per event, as an agent streams.
// bench/run.sh measures ananke and wrk against it beside ananke-mock.
//
// usage: node agui-node-server.mjs --port-file FILE [--requests FILE]
//   --port-file   once listening on 127.0.0.1 (a free port), the port is written there
//   --requests    one line per request received (the body's runId), for bench/run.sh's counts
import { createServer } from "node:http";
import { closeSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { EventEncoder } from "@ag-ui/encoder";

const o = { portFile: null, requests: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--port-file") o.portFile = process.argv[++i];
  else if (a === "--requests") o.requests = process.argv[++i];
  else {
    process.stderr.write(`agui-node-server: unknown argument '${a}'\n`);
    process.exit(2);
  }
}
// one synchronous write per request: the line is there when the response is
const log = o.requests ? openSync(o.requests, "a") : null;

function events(threadId, runId) {
  const tc = `call-${runId}`;
  const msg = `msg-${runId}`;
  const args = JSON.stringify({ query: "weather in Paris" });
  return [
    { type: "RUN_STARTED", threadId, runId },
    { type: "TOOL_CALL_START", toolCallId: tc, toolCallName: "search" },
    { type: "TOOL_CALL_ARGS", toolCallId: tc, delta: args },
    { type: "TOOL_CALL_END", toolCallId: tc },
    {
      type: "TOOL_CALL_RESULT",
      messageId: `${tc}-result`,
      toolCallId: tc,
      content: JSON.stringify({ forecast: "sunny", temp_c: 21 }),
      role: "tool",
    },
    { type: "TEXT_MESSAGE_START", messageId: msg, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: msg, delta: "The weather in Paris is sunny, 21 degrees." },
    { type: "TEXT_MESSAGE_END", messageId: msg },
    { type: "RUN_FINISHED", threadId, runId },
  ];
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let input;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400, { "Content-Type": "text/plain" });
      res.end("bad JSON\n");
      return;
    }
    const threadId = String(input.threadId ?? "thread");
    const runId = String(input.runId ?? "run");
    if (log !== null) writeSync(log, `${JSON.stringify(runId)}\n`);
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
    for (const ev of events(threadId, runId)) res.write(encoder.encode(ev));
    res.end();
  });
});
server.keepAliveTimeout = 60000;

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  if (o.portFile) {
    const tmp = `${o.portFile}.tmp.${process.pid}`;
    writeFileSync(tmp, `${port}\n`);
    renameSync(tmp, o.portFile);
  }
});
const stop = () => {
  server.close();
  if (log !== null) closeSync(log);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
