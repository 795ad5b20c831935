// A scripted A2A 1.0 agent for the faults the SDK agent cannot produce.
// No SDK: every byte is written here. What it does is chosen by the user's
// text (streamed sends; a blocking send gets the same as one JSON answer
// where that makes sense):
//
//   garbage   an SSE event that is not JSON
//   shape     a result of no known shape
//   rpcerror  a JSON-RPC error, as application/json, to a streaming call
//   cut       task, working, then the connection is destroyed
//   hang      task, working, then nothing: the stream never ends (CancelTask
//             is answered with the task canceled)
//   open      task, completed, and the stream stays open
//   chunks    an artifact streamed in three appended chunks, then completed
//
// Usage: node fault.mjs --port-file F [--requests F]. Binds 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const portFile = opt('--port-file');
const requestsFile = opt('--requests');
const open = new Set();

const sse = (res) => res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
const ev = (res, id, result) => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
const task = (id, state, extra = {}) => ({ task: { id, contextId: 'ctx-1', status: { state }, ...extra } });
const status = (id, state, text) => ({
  statusUpdate: {
    taskId: id, contextId: 'ctx-1',
    status: { state, ...(text ? { message: { messageId: `s-${state}-${Date.now()}`, role: 'ROLE_AGENT', parts: [{ text }] } } : {}) },
  },
});

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let msg = null;
    try { msg = body ? JSON.parse(body) : null; } catch { /* logged as null */ }
    if (requestsFile) {
      fs.appendFileSync(requestsFile, `${JSON.stringify({ method: req.method, path: req.url, version: req.headers['a2a-version'] ?? null, body: msg })}\n`);
    }
    const base = `http://127.0.0.1:${server.address().port}`;
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({
        name: 'Fault Agent', description: 'misbehaves on request', version: '0.0.1',
        supportedInterfaces: [{ url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
      }));
      return;
    }
    if (req.method !== 'POST' || !msg) { res.writeHead(404); res.end(); return; }
    const id = msg.id;
    if (msg.method === 'CancelTask') {
      const tid = msg.params?.id;
      for (const r of open) r.destroy();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { id: tid, contextId: 'ctx-1', status: { state: 'TASK_STATE_CANCELED' } } }));
      return;
    }
    const text = (msg.params?.message?.parts ?? []).map((p) => p.text ?? '').join('');
    const tid = `task-${text}`;
    if (text === 'rpcerror') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32004, message: 'Unsupported operation: no rockets' } }));
      return;
    }
    sse(res);
    switch (text) {
      case 'garbage':
        ev(res, id, task(tid, 'TASK_STATE_SUBMITTED'));
        res.end('data: {"jsonrpc":"2.0","id":1,"result":{not json\n\n');
        break;
      case 'shape':
        ev(res, id, { foo: 1 });
        res.end();
        break;
      case 'cut':
        ev(res, id, task(tid, 'TASK_STATE_SUBMITTED'));
        ev(res, id, status(tid, 'TASK_STATE_WORKING', 'working'));
        setTimeout(() => res.destroy(), 100);
        break;
      case 'hang':
        ev(res, id, task(tid, 'TASK_STATE_SUBMITTED'));
        ev(res, id, status(tid, 'TASK_STATE_WORKING', 'working'));
        open.add(res);
        res.on('close', () => open.delete(res));
        break;
      case 'open':
        ev(res, id, task(tid, 'TASK_STATE_SUBMITTED'));
        ev(res, id, status(tid, 'TASK_STATE_COMPLETED', 'done, but I keep the line open'));
        open.add(res);
        res.on('close', () => open.delete(res));
        break;
      case 'chunks':
        ev(res, id, task(tid, 'TASK_STATE_WORKING'));
        ['Once ', 'upon ', 'a time'].forEach((t, i) => ev(res, id, {
          artifactUpdate: { taskId: tid, contextId: 'ctx-1', append: i > 0, lastChunk: i === 2, artifact: { artifactId: 'story-1', name: 'story', parts: [{ text: t }] } },
        }));
        ev(res, id, status(tid, 'TASK_STATE_COMPLETED'));
        res.end();
        break;
      default:
        ev(res, id, status(tid, 'TASK_STATE_FAILED', `unknown fault '${text}'`));
        res.end();
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  if (portFile) fs.writeFileSync(portFile, `${server.address().port}\n`);
});
process.on('SIGTERM', () => { for (const r of open) r.destroy(); server.close(() => process.exit(0)); });
