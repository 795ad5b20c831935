// An A2A agent built on the official JavaScript SDK (@a2a-js/sdk, npm),
// serving A2A 1.0 and, through the SDK's own compatibility layer, 0.3 on one
// URL. No model: what it does is chosen by the start of the user's text.
//
//   hello          task: submitted -> working -> text artifact -> completed
//   msg:X          a direct Message "echo: X" (no task)
//   data:X         task completed with a data artifact {"echo": X, "n": 3}
//                  and a file artifact (a URL part)
//   ask:X          task input-required ("need more input"); the next message
//                  with that taskId completes it with "echo: <its text>"
//   fail:X         task failed, status message "cannot do: X"
//   slow:X         task working for 20 s, then completed; cancelable
//
// Usage: node agent.mjs [--port N] [--port-file F] [--requests F]
//                       [--api-key KEY] [--no-streaming] [--v1-only] [--rest] [--push]
// Binds 127.0.0.1 only. --api-key: the card declares an apiKey scheme (header
// X-API-Key) and every JSON-RPC request without that key gets HTTP 401.
// --rest: the SDK's HTTP+JSON (REST) handler under /rest too (0.3: /rest/v1/...
// through its compatibility layer; 1.0: /rest/message:send ...), offered by
// the card after JSON-RPC. --requests logs every request (method, path, the
// A2A-Version header, auth headers, body; url: the path with its query) as
// JSON lines. --push: the card offers push notifications, the SDK's
// InMemoryPushNotificationStore keeps the configs (its default sender
// posts to their URLs).
import fs from 'node:fs';
import crypto from 'node:crypto';
import express from 'express';
import { AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent, DefaultRequestHandler, InMemoryPushNotificationStore, InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const flag = (name) => args.includes(name);
const port = Number(opt('--port', '0'));
const portFile = opt('--port-file');
const requestsFile = opt('--requests');
const apiKey = opt('--api-key');
// the SDK serves the card object as it holds it; a security scheme (a proto
// oneof) only reads right through AgentCard.toJSON, which the 0.3 layer does
// not take: an agent with a key speaks 1.0 only
const legacy = !flag('--v1-only') && !apiKey;
const streaming = !flag('--no-streaming');
const rest = flag('--rest');
const push = flag('--push');

const TS = {
  SUBMITTED: 1, WORKING: 2, COMPLETED: 3, FAILED: 4, CANCELED: 5, INPUT_REQUIRED: 6,
};
const ROLE_AGENT = 2;
const id = () => crypto.randomUUID();
const text = (t) => ({ content: { $case: 'text', value: t }, mediaType: 'text/plain', filename: '', metadata: undefined });
const dataPart = (v) => ({ content: { $case: 'data', value: v }, mediaType: 'application/json', filename: '', metadata: undefined });
const urlPart = (u, name) => ({ content: { $case: 'url', value: u }, mediaType: 'text/csv', filename: name, metadata: undefined });
const agentMsg = (ctx, taskId, t) => ({
  messageId: id(), contextId: ctx, taskId, role: ROLE_AGENT, parts: [text(t)],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const now = () => new Date().toISOString();
const status = (state, msg) => ({ state, message: msg, timestamp: now() });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function userText(m) {
  return (m.parts || []).map((p) => (p.content && p.content.$case === 'text' ? p.content.value : '')).join('');
}

const canceled = new Set();

const executor = {
  async execute(rc, bus) {
    const { taskId, contextId } = rc;
    const said = userText(rc.userMessage);
    const upd = (state, msg) => bus.publish(AgentEvent.statusUpdate({
      taskId, contextId, status: status(state, msg), metadata: undefined,
    }));
    const art = (name, parts) => bus.publish(AgentEvent.artifactUpdate({
      taskId, contextId, append: false, lastChunk: true, metadata: undefined,
      artifact: { artifactId: id(), name, description: '', parts, metadata: undefined, extensions: [] },
    }));
    if (said.startsWith('msg:')) {
      bus.publish(AgentEvent.message(agentMsg(contextId, undefined, `echo: ${said.slice(4)}`)));
      bus.finished();
      return;
    }
    if (rc.task) {
      // a follow-up to an input-required task
      bus.publish(AgentEvent.task(rc.task));
      upd(TS.WORKING, agentMsg(contextId, taskId, 'working'));
      art('echo', [text(`echo: ${said}`)]);
      upd(TS.COMPLETED, undefined);
      bus.finished();
      return;
    }
    bus.publish(AgentEvent.task({
      id: taskId, contextId, status: status(TS.SUBMITTED, undefined),
      artifacts: [], history: [rc.userMessage], metadata: undefined,
    }));
    upd(TS.WORKING, agentMsg(contextId, taskId, 'working'));
    if (said.startsWith('ask:')) {
      upd(TS.INPUT_REQUIRED, agentMsg(contextId, taskId, 'need more input'));
    } else if (said.startsWith('fail:')) {
      upd(TS.FAILED, agentMsg(contextId, taskId, `cannot do: ${said.slice(5)}`));
    } else if (said.startsWith('data:')) {
      art('result', [dataPart({ echo: said.slice(5), n: 3 })]);
      art('report', [urlPart('http://127.0.0.1/report.csv', 'report.csv')]);
      upd(TS.COMPLETED, undefined);
    } else if (said.startsWith('slow:')) {
      for (let i = 0; i < 200 && !canceled.has(taskId); i++) await sleep(100);
      if (!canceled.has(taskId)) {
        art('echo', [text(`echo: ${said}`)]);
        upd(TS.COMPLETED, undefined);
      }
    } else {
      art('echo', [text(`echo: ${said}`)]);
      upd(TS.COMPLETED, undefined);
    }
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    canceled.add(taskId);
    bus.publish(AgentEvent.statusUpdate({
      taskId, contextId: '', status: status(TS.CANCELED, undefined), metadata: undefined,
    }));
    bus.finished();
  },
};

const app = express();
let base = '';
const card = () => {
  const ifaces = [{ url: `${base}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }];
  if (rest) ifaces.push({ url: `${base}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' });
  if (legacy) ifaces.push({ url: `${base}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' });
  if (legacy && rest) ifaces.push({ url: `${base}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' });
  const c = {
    name: 'Echo Agent', description: 'echoes, asks, fails and waits on request', version: '1.0.0',
    supportedInterfaces: ifaces, provider: undefined,
    capabilities: { streaming, pushNotifications: push, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: 'echo', name: 'echo', description: 'echo the text', tags: ['echo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  if (apiKey) {
    c.securitySchemes = { key: { scheme: { $case: 'apiKeySecurityScheme', value: { description: '', location: 'header', name: 'X-API-Key' } } } };
    c.securityRequirements = [{ schemes: { key: { list: [] } } }];
  }
  return c;
};

if (requestsFile) {
  app.use(express.json({ limit: '1mb' }));
  app.use((req, _res, next) => {
    fs.appendFileSync(requestsFile, JSON.stringify({
      method: req.method, path: req.path, url: req.originalUrl, version: req.get('A2A-Version') ?? null,
      apiKey: req.get('X-API-Key') ?? null, authorization: req.get('Authorization') ?? null,
      accept: req.get('Accept') ?? null, body: req.body ?? null,
    }) + '\n');
    next();
  });
}
if (apiKey) {
  app.use((req, res, next) => {
    if (req.path.startsWith('/.well-known/') || req.get('X-API-Key') === apiKey) return next();
    res.status(401).json({ error: 'missing or wrong X-API-Key' });
  });
}

// the card names the URL, known once the port is: the handlers are made then
let cardMw, rpcMw, restMw;
app.use('/.well-known/agent-card.json', (req, res, next) => cardMw(req, res, next));
if (rest) app.use('/rest', (req, res, next) => restMw(req, res, next));
app.use('/', (req, res, next) => rpcMw(req, res, next));

const server = app.listen(port, '127.0.0.1', () => {
  const p = server.address().port;
  base = `http://127.0.0.1:${p}`;
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor, undefined,
    push ? new InMemoryPushNotificationStore() : undefined);
  const compat = legacy ? { enabled: true } : undefined;
  const provider = apiKey ? async () => AgentCard.toJSON(await handler.getAgentCard()) : handler;
  cardMw = agentCardHandler({ agentCardProvider: provider, legacyCompat: compat });
  rpcMw = jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: compat });
  restMw = restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: compat });
  if (portFile) fs.writeFileSync(portFile, `${p}\n`);
  else console.log(`listening on ${base}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
