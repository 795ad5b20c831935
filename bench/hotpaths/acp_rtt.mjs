// JSON-RPC round trips over stdio through the ACP SDK's client
// (@agentclientprotocol/sdk ClientSideConnection), for bench/hotpaths.sh:
//     node acp_rtt.mjs N PEER [ARG...]
// Spawns PEER as the agent, then awaits `initialize` N times in a row (one
// request in flight). Prints one line of JSON: round_trips, seconds.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [nArg, ...peer] = process.argv.slice(2);
const n = Number(nArg);
const child = spawn(peer[0], peer.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const client = {
  async requestPermission() { return { outcome: { outcome: "cancelled" } }; },
  async sessionUpdate() {},
};
const conn = new acp.ClientSideConnection(() => client, stream);
const params = {
  protocolVersion: acp.PROTOCOL_VERSION,
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  clientInfo: { name: "bench", version: "0" },
};
const t0 = process.hrtime.bigint();
for (let i = 0; i < n; i++) {
  const r = await conn.initialize(params);
  if (r.protocolVersion !== 1) throw new Error("unexpected answer");
}
const s = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ round_trips: n, seconds: s }));
child.stdin.end();
child.kill();
process.exit(0);
