// The MCP client of bench/tools-proxy.sh: tools/call `echo` over Streamable
// HTTP, one call in flight, alternately straight to the upstream and through
// ananke's tool proxy, in rounds; per-call times in microseconds.
//   node tools-proxy-client.mjs PROXY_URL DIRECT_URL OUT_JSON CALLS
import { writeFileSync } from 'node:fs';

const [proxyUrl, directUrl, out, callsArg] = process.argv.slice(2);
const calls = Number(callsArg || 2000);
const ROUNDS = 10;
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const sessions = new Map(); // url -> the Mcp-Session-Id its initialize gave
async function rpc(url, body) {
  const h = sessions.has(url) ? { ...headers, 'mcp-session-id': sessions.get(url) } : headers;
  const r = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify(body) });
  const sid = r.headers.get('mcp-session-id');
  if (sid) sessions.set(url, sid);
  const text = await r.text();
  if (r.status >= 300) throw new Error(`HTTP ${r.status}: ${text.slice(0, 200)} (${url})`);
  return text;
}

async function open(url) {
  await rpc(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {
    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
  await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' });
}

let id = 1;
async function call(url) {
  const t0 = process.hrtime.bigint();
  const text = await rpc(url, { jsonrpc: '2.0', id: id++, method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'bench' } } });
  const us = Number(process.hrtime.bigint() - t0) / 1000;
  if (!text.includes('bench')) throw new Error(`${url}: no echo in ${text.slice(0, 200)}`);
  return us;
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length * 0.9)]; };

await open(directUrl);
await open(proxyUrl);
for (let i = 0; i < 50; i++) { await call(directUrl); await call(proxyUrl); } // warm up
const direct = [], proxy = [];
const per = Math.max(1, Math.floor(calls / ROUNDS / 2));
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < per; i++) direct.push(await call(directUrl));
  for (let i = 0; i < per; i++) proxy.push(await call(proxyUrl));
}
const res = {
  calls_each: direct.length,
  direct_p50_us: median(direct), direct_p90_us: p90(direct),
  proxy_p50_us: median(proxy), proxy_p90_us: p90(proxy),
  overhead_p50_us: median(proxy) - median(direct),
};
writeFileSync(out, JSON.stringify(res) + '\n');
