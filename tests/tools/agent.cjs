// A scripted AG-UI agent whose tools are MCP tools reached through the
// official @modelcontextprotocol/sdk client (Streamable HTTP), at the URL in
// $TOOLS_URL (ananke's tool proxy: ${TOOL_SERVERS.NAME.url}), or over stdio
// through the command in $TOOLS_STDIO. Port: $AGENT_PORT.
// The user message is a script, one command a line:
//   call TOOL JSON    call the tool with these arguments and report the call
//   claim TOOL JSON   report a call (with a made-up result) without making it
//   hide TOOL JSON    call the tool without reporting the call
//   say TEXT          assistant text
//   sleep MS          wait MS milliseconds
//   raw METHOD BODY   send BODY to the tool server's URL as it is; the text
//                     says METHOD -> STATUS BODY
// Used by tests/tools/run.sh.
'use strict';
const http = require('http');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

let client;
async function mcp() {
  if (client) return client;
  const c = new Client({ name: 'ananke-scripted-agent', version: '1.0.0' });
  // $TOOLS_STDIO (${TOOL_SERVERS.NAME.command}: program and arguments,
  // space-separated): spawn it and speak MCP on its stdio instead
  if (process.env.TOOLS_STDIO) {
    const [command, ...args] = process.env.TOOLS_STDIO.split(' ');
    await c.connect(new StdioClientTransport({ command, args, env: { ...process.env } }));
  } else {
    await c.connect(new StreamableHTTPClientTransport(new URL(process.env.TOOLS_URL)));
  }
  client = c;
  return c;
}

function lastUser(body) {
  const msgs = body.messages || [];
  for (let i = msgs.length - 1; i >= 0; i--)
    if (msgs[i].role === 'user') return typeof msgs[i].content === 'string' ? msgs[i].content : '';
  return '';
}

async function run(body, send) {
  const threadId = body.threadId || 't', runId = body.runId || 'r';
  send({ type: 'RUN_STARTED', threadId, runId });
  let n = 0;
  for (const line of lastUser(body).split('\n')) {
    const m = /^(call|claim|hide|say|raw|sleep)\s+(\S+)?\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === 'sleep') { await new Promise((r) => setTimeout(r, Number(m[2]))); continue; }
    if (m[1] === 'say') {
      const text = line.trim().slice(4);
      send({ type: 'TEXT_MESSAGE_START', messageId: 'm' + n, role: 'assistant' });
      send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' + n, delta: text });
      send({ type: 'TEXT_MESSAGE_END', messageId: 'm' + n++ });
      continue;
    }
    if (m[1] === 'raw') {
      const r = await fetch(process.env.TOOLS_URL, {
        method: m[2], body: m[2] === 'POST' ? m[3] : undefined,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      });
      const text = m[2] + ' -> ' + r.status + ' ' + (await r.text());
      send({ type: 'TEXT_MESSAGE_START', messageId: 'm' + n, role: 'assistant' });
      send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' + n, delta: text + '\n' });
      send({ type: 'TEXT_MESSAGE_END', messageId: 'm' + n++ });
      continue;
    }
    const name = m[2], args = m[3] ? JSON.parse(m[3]) : {};
    // a failed call (an error answer, a cut connection, a malformed
    // answer) is reported as the call's result, as an agent would see it
    const callTool = async () => {
      try {
        return JSON.stringify((await (await mcp()).callTool({ name, arguments: args })).content);
      } catch (e) {
        return JSON.stringify([{ type: 'text', text: 'tool error: ' + (e && e.message || e) }]);
      }
    };
    if (m[1] === 'hide') {
      await callTool();
      continue;
    }
    const id = 'c' + n++;
    send({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name });
    send({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify(args) });
    send({ type: 'TOOL_CALL_END', toolCallId: id });
    let content;
    if (m[1] === 'call') {
      content = await callTool();
    } else {
      content = '[{"type":"text","text":"done"}]';
    }
    send({ type: 'TOOL_CALL_RESULT', messageId: 'r' + id, toolCallId: id, content });
  }
  send({ type: 'RUN_FINISHED', threadId, runId });
}

http.createServer((req, res) => {
  if (req.method !== 'POST') { res.writeHead(405); res.end(); return; }
  let data = '';
  req.on('data', (d) => { data += d; });
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (ev) => res.write('data: ' + JSON.stringify(ev) + '\n\n');
    try {
      await run(JSON.parse(data), send);
    } catch (e) {
      send({ type: 'RUN_ERROR', message: String(e && e.message || e) });
    }
    res.end();
  });
}).listen(Number(process.env.AGENT_PORT), '127.0.0.1');
