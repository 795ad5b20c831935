// A scripted ACP agent (JSON-RPC on stdio) whose tools are MCP tools reached
// through the official @modelcontextprotocol/sdk client (Streamable HTTP) at
// the URL session/new's mcpServers gives (ananke's tool proxy: the test's own
// path, docs/tools.md "Parallel runs"). The prompt is a script, one command a
// line:
//   call TOOL JSON   call the tool, report the call and its result's text
//                    ($OWN_URL in JSON: the tool server's URL as given)
//   sleep MS         wait MS milliseconds
// Used by tests/tools/attribution.sh.
'use strict';
const readline = require('readline');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
// $ACP_STDIO=1: the agent says it has no HTTP MCP, and spawns the stdio
// entry ananke then gives (`ananke tool-proxy NAME --url OWN_URL`)
const stdio = process.env.ACP_STDIO === '1';

const out = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const update = (sessionId, u) => out({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
let servers = [];
let client;

async function mcp() {
  if (client) return client;
  const c = new Client({ name: 'ananke-scripted-acp-agent', version: '1.0.0' });
  const s = servers[0];
  if (stdio) {
    if (s.url) throw new Error('an http entry given to an agent without HTTP MCP');
    await c.connect(new StdioClientTransport({ command: s.command, args: s.args }));
  } else {
    await c.connect(new StreamableHTTPClientTransport(new URL(s.url)));
  }
  client = c;
  return c;
}

// the URL of the first tool server as given (http: its url; stdio: --url's value)
function ownUrl() {
  const s = servers[0] || {};
  if (s.url) return s.url;
  const a = s.args || [];
  const i = a.indexOf('--url');
  return i >= 0 ? a[i + 1] : '';
}

async function prompt(id, p) {
  const text = (p.prompt || []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  let n = 0;
  for (const line of text.split('\n')) {
    const m = /^(call|sleep)\s+(\S+)\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === 'sleep') { await new Promise((r) => setTimeout(r, Number(m[2]))); continue; }
    const name = m[2], args = m[3] ? JSON.parse(m[3].split('$OWN_URL').join(ownUrl())) : {};
    const toolCallId = 'c' + n++;
    update(p.sessionId, { sessionUpdate: 'tool_call', toolCallId, title: name, kind: 'other', status: 'in_progress', rawInput: args });
    let said;
    try {
      const r = await (await mcp()).callTool({ name, arguments: args });
      said = (r.content || []).map((c) => c.text || '').join('');
      update(p.sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', rawOutput: r });
    } catch (e) {
      said = 'tool error: ' + (e && e.message || e);
      update(p.sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    }
    update(p.sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: said + '\n' } });
  }
  out({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize')
    out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { http: !stdio } } } });
  else if (m.method === 'session/new') {
    servers = m.params.mcpServers || [];
    out({ jsonrpc: '2.0', id: m.id, result: { sessionId: 's1' } });
  } else if (m.method === 'session/prompt')
    prompt(m.id, m.params).catch((e) => out({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: String(e) } }));
  else if (m.id !== undefined && m.method)
    out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } });
});
