// An AG-UI server built with LangGraph.js: graph.mjs runs in
// @langchain/langgraph-api (the LangGraph dev server, in this process, on a
// second loopback port), and @ag-ui/langgraph's LangGraphAgent (the AG-UI
// integration LangGraph documents) turns its runs into AG-UI events, written
// by @ag-ui/encoder. No LLM, no network. Versions: package.json (pinned) and
// the lock.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "@langchain/langgraph-api/server";
import { LangGraphAgent } from "@ag-ui/langgraph";
import { EventEncoder } from "@ag-ui/encoder";
import { aguiHandler, listen } from "../lib/serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    }).on("error", reject);
  });

// langgraph-api keeps its threads and checkpoints under <cwd>/.langgraph_api:
// a directory of its own, removed on exit, not the source tree.
const state = mkdtempSync(join(tmpdir(), "ananke-langgraph-"));
process.on("exit", () => rmSync(state, { recursive: true, force: true }));
const port = await freePort();
await startServer({
  port, nWorkers: 1, host: "127.0.0.1", cwd: state,
  graphs: { "weather-agent": `${here}/graph.mjs:graph` },
});
const deploymentUrl = `http://127.0.0.1:${port}`;

listen("langgraph-server", (opts) => aguiHandler({
  run: (input) => new LangGraphAgent({ deploymentUrl, graphId: "weather-agent" }).run(input),
  encoder: () => new EventEncoder({ accept: "text/event-stream" }),
}, opts));
