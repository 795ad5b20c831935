#!/usr/bin/env node
// A small MCP server on stdio (no dependencies) for what the reference servers
// never do: it dies mid-call, writes malformed frames, answers with a JSON-RPC
// error, pages its tools list, asks the client things before answering, and
// can claim a protocol version nobody speaks.
//   node faulty.js [--version V] [--log FILE]
// --version V: answer initialize with V instead of the version asked for.
// --log FILE: append every message received, one per line.
// Tools: echo {message}, ask (pings the client, asks roots/list and
// sampling/createMessage, answers with what came back), rpc_error, die (exits
// 3 mid-call), garbage (a malformed frame, then nothing), hang (no answer).
'use strict';
const fs = require('fs');
const readline = require('readline');

const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const forced = opt('--version');
const log = opt('--log');

const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const tools = ['echo', 'ask', 'rpc_error', 'die', 'garbage', 'hang'].map((name) => ({
  name, inputSchema: { type: 'object' },
}));

let nextId = 100;
const waiting = new Map(); // our request id -> resolve

function ask(method, params) {
  const id = `s${nextId++}`;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

async function call(id, name, args) {
  switch (name) {
    case 'echo':
      return send({ id, result: text(`echo: ${args && args.message}`) });
    case 'ask': {
      const [ping, roots, sampling] = await Promise.all([
        ask('ping'), ask('roots/list'),
        ask('sampling/createMessage', { messages: [], maxTokens: 1 })]);
      const said = (r) => (r.error ? `error ${r.error.code}` : JSON.stringify(r.result));
      return send({ id, result: text(`ping: ${said(ping)}; roots: ${said(roots)}; sampling: ${said(sampling)}`) });
    }
    case 'rpc_error':
      return send({ id, error: { code: -32602, message: 'Invalid params: rpc_error always fails' } });
    case 'die':
      process.stderr.write('faulty: dying mid-call on purpose\n');
      return process.exit(3);
    case 'garbage':
      return process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":{\n');
    case 'hang':
      return undefined;
    default:
      return send({ id, result: { ...text(`unknown tool ${name}`), isError: true } });
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (log) fs.appendFileSync(log, line + '\n');
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.method === undefined) { // an answer to one of our requests
    const resolve = waiting.get(m.id);
    if (resolve) { waiting.delete(m.id); resolve(m); }
    return;
  }
  if (m.id === undefined) return; // notifications
  switch (m.method) {
    case 'initialize':
      return send({ id: m.id, result: {
        protocolVersion: forced || m.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'faulty', version: '0.0.1' },
      } });
    case 'tools/list': // two pages: the cursor must be followed
      if (m.params && m.params.cursor === 'page2')
        return send({ id: m.id, result: { tools: tools.slice(3) } });
      return send({ id: m.id, result: { tools: tools.slice(0, 3), nextCursor: 'page2' } });
    case 'tools/call':
      return call(m.id, m.params.name, m.params.arguments);
    case 'ping':
      return send({ id: m.id, result: {} });
    default:
      return send({ id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
