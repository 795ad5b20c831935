// What tests/otlp/run.sh checks after a run: the spans the receiver
// decoded (OUT/spans.jsonl), the export requests it saw
// (OUT/collector.jsonl) and the requests the mock agent logged.
//   node check.js OUT agui protobuf|json | openai | http | a2a | caps
// Prints each broken expectation and exits 1 when there is one.
'use strict';
const fs = require('fs');
const path = require('path');

const [out, what, proto] = process.argv.slice(2);
const lines = (f) => {
  const p = path.join(out, f);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
};
const problems = [];
const expect = (cond, msg) => { if (!cond) problems.push(msg); };

const spans = lines('spans.jsonl');
const posts = lines('collector.jsonl');
expect(posts.length > 0, 'no export reached the receiver');
for (const e of posts) expect(!e.error, `the receiver could not decode an export: ${e.error}`);
for (const s of spans) {
  expect(/^[0-9a-f]{32}$/.test(s.traceId) && !/^0+$/.test(s.traceId), `span ${s.name}: bad trace id ${s.traceId}`);
  expect(/^[0-9a-f]{16}$/.test(s.spanId) && !/^0+$/.test(s.spanId), `span ${s.name}: bad span id ${s.spanId}`);
  expect(s.scope === 'ananke', `span ${s.name}: scope ${s.scope}`);
  expect(BigInt(s.end) >= BigInt(s.start) && BigInt(s.start) > 0n, `span ${s.name}: times ${s.start}..${s.end}`);
}
const byName = (n, trace) => spans.filter((s) => s.name === n && (!trace || s.traceId === trace));
const one = (n, trace) => {
  const l = byName(n, trace);
  expect(l.length === 1, `${l.length} spans named '${n}', expected 1`);
  return l[0] || { attributes: {}, events: [], status: {} };
};
const childOf = (child, parent, what) =>
  expect(child.parentSpanId === parent.spanId && child.traceId === parent.traceId,
    `${what}: '${child.name}' is not a child of '${parent.name}'`);

// every request the agent got names a turn span of the trace as its parent
function traceparents(file, turns, wantState) {
  const reqs = lines(file);
  expect(reqs.length > 0, `${file}: no request logged`);
  const seen = new Set();
  for (const r of reqs) {
    const tp = r.headers && r.headers.traceparent;
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(tp || '');
    expect(m, `${file}: request ${r.method} ${r.path} has traceparent '${tp}'`);
    if (!m) continue;
    const turn = turns.find((t) => t.traceId === m[1] && t.spanId === m[2]);
    expect(turn, `${file}: traceparent ${tp} names no exported turn span`);
    if (turn) seen.add(turn.spanId);
    if (wantState) expect(r.headers.tracestate === wantState, `${file}: tracestate '${r.headers.tracestate}'`);
  }
  return seen;
}

function agui() {
  const ct = proto === 'json' ? 'application/json' : 'application/x-protobuf';
  for (const e of posts.filter((x) => !x.error)) {
    expect(e.path === '/v1/traces', `export to ${e.path}, expected /v1/traces (the base endpoint's path)`);
    expect(e.contentType === ct, `export as ${e.contentType}, expected ${ct}`);
    expect(e.headers.authorization === 'Bearer tok-collector-1', `otlp.headers not sent: ${e.headers.authorization}`);
  }
  const text = JSON.stringify(spans);
  expect(!text.includes('sk-otlp-9f8e7d6c5b4a'), 'the secret reached the collector');
  expect(!text.includes('9f8e7d6c'), 'a piece of the secret reached the collector');
  expect(!text.includes('tok-collector-1'), "the collector's token (otlp.headers) reached the spans");
  for (const s of spans) {
    expect(s.resource['service.name'] === 'otlp-suite', `service.name ${s.resource['service.name']}`);
    expect(s.traceState === 'ananke=t61rcWkgMzE', `span ${s.name}: traceState '${s.traceState}'`);
  }
  // the passing test: test -> turn -> tool call, the judge under its turn
  const test = one('test weather with a tool');
  const tr = test.traceId;
  expect(test.parentSpanId === '', 'the test span has a parent');
  expect(test.status.code === 1, `passing test: status ${JSON.stringify(test.status)}, expected OK (1)`);
  expect(test.attributes['ananke.test.status'] === 'pass', 'ananke.test.status');
  expect(/(^|\/)weather\.test\.yaml$/.test(test.attributes['ananke.test.file']), 'ananke.test.file');
  expect(test.attributes['gen_ai.usage.input_tokens'] === 120, 'test: gen_ai.usage.input_tokens');
  const t1 = one('turn 1', tr), t2 = one('turn 2', tr);
  childOf(t1, test, 'turn 1');
  childOf(t2, test, 'turn 2');
  expect(t1.kind === 3, `turn span kind ${t1.kind}, expected CLIENT (3)`);
  expect(t1.attributes['gen_ai.operation.name'] === 'invoke_agent', 'turn: gen_ai.operation.name');
  expect(t1.attributes['gen_ai.request.model'] === 'agent-model', 'turn: gen_ai.request.model');
  expect(t1.attributes['gen_ai.usage.input_tokens'] === 120, 'turn: gen_ai.usage.input_tokens');
  expect(t1.attributes['gen_ai.usage.output_tokens'] === 30, 'turn: gen_ai.usage.output_tokens');
  expect(t1.attributes['ananke.turn.input'] === 'weather please', 'turn: ananke.turn.input');
  expect(t1.attributes['ananke.turn.output'] === 'It is sunny in Paris.', 'turn: ananke.turn.output');
  const tool = one('execute_tool search', tr);
  childOf(tool, t1, 'tool call');
  expect(tool.attributes['gen_ai.operation.name'] === 'execute_tool', 'tool: gen_ai.operation.name');
  expect(tool.attributes['gen_ai.tool.name'] === 'search', 'tool: gen_ai.tool.name');
  expect(tool.attributes['gen_ai.tool.call.id'] === 'call-search-1', 'tool: gen_ai.tool.call.id');
  // the target's API key and the collector's token (otlp.headers) alike
  expect(tool.attributes['gen_ai.tool.call.arguments'] === '{"query":"weather paris","key":"[redacted]","collector":"[redacted]"}',
    `tool: arguments ${tool.attributes['gen_ai.tool.call.arguments']}`);
  expect(tool.attributes['gen_ai.tool.call.result'] === '{"status":"success","items":3}', 'tool: result');
  const judge = one('judge judge', tr);
  childOf(judge, t1, 'judge');
  expect(judge.attributes['ananke.judge.verdict'] === 'accepted', 'judge: verdict');
  expect(judge.attributes['gen_ai.operation.name'] === 'chat', 'judge: gen_ai.operation.name');
  // the failing test: status ERROR, the finding as an event on the test's turn
  const ftest = one('test refund is refused');
  expect(ftest.status.code === 2 && ftest.status.message === 'Text must match /refund approved/',
    `failing test: status ${JSON.stringify(ftest.status)}`);
  const ft1 = one('turn 1', ftest.traceId);
  childOf(ft1, ftest, 'failing turn');
  expect(ft1.status.code === 2, 'failing turn: status');
  const ev = ft1.events.find((e) => e.name === 'ananke.finding');
  expect(ev && ev.attributes['ananke.finding.kind'] === 'text.must_match' &&
    /(^|\/)refund\.test\.yaml$/.test(ev.attributes['code.file.path']) && ev.attributes['code.line.number'] === 7,
  `failing turn: finding event ${JSON.stringify(ft1.events)}`);
  expect(ftest.traceId !== tr, 'two tests share a trace');
  // the JSON report names each test's trace
  const report = path.join(out, 'agui-results.json');
  if (proto === 'protobuf') {
    const res = JSON.parse(fs.readFileSync(report, 'utf8'));
    for (const [name, span] of [['weather with a tool', test], ['refund is refused', ftest]]) {
      const r = res.tests.find((x) => x.name === name);
      expect(r && r.trace_id === span.traceId, `the JSON report's trace_id of '${name}' is ${r && r.trace_id}, the trace ${span.traceId}`);
    }
  }
  // the agent's requests carry the turn's traceparent and the tracestate
  const turns = spans.filter((s) => /^turn /.test(s.name));
  const seen = traceparents('agui-requests.jsonl', turns, 'ananke=t61rcWkgMzE');
  expect(seen.size === 3, `the agent's requests name ${seen.size} turn spans, expected 3`);
  // and the judge's request names the judge's span
  const js = traceparents('judge-requests.jsonl', [judge], 'ananke=t61rcWkgMzE');
  expect(js.size === 1, "the judge's request names the judge span");
}

function openai() {
  for (const e of posts) {
    expect(e.path === '/custom/traces', `export to ${e.path}: --otlp with a path is used as is`);
    expect(e.contentType === 'application/json', `export as ${e.contentType}`);
  }
  const test = one('test openai weather');
  const t1 = one('turn 1', test.traceId);
  childOf(t1, test, 'turn');
  expect(t1.attributes['gen_ai.request.model'] === undefined || typeof t1.attributes['gen_ai.request.model'] === 'string', 'model');
  const tool = one('execute_tool get_weather', test.traceId);
  childOf(tool, t1, 'tool call');
  expect(tool.attributes['gen_ai.tool.call.id'] === 'call_w', 'tool: gen_ai.tool.call.id');
  const reqs = lines('openai-requests.jsonl');
  expect(reqs.length === 2, `${reqs.length} model calls, expected 2 (a tool loop)`);
  const seen = traceparents('openai-requests.jsonl', [t1], null);
  expect(seen.size === 1, 'both rounds of the tool loop carry the turn span');
  for (const r of reqs) expect(r.headers.tracestate === undefined, 'a tracestate sent that nobody set');
}

function http() {
  const test = one('test ticket');
  const t1 = one('turn 1', test.traceId);
  childOf(t1, test, 'turn');
  const tool = one('execute_tool get_customer', test.traceId);
  childOf(tool, t1, 'tool call');
  expect(tool.attributes['gen_ai.tool.call.id'] === 'c1', 'tool: gen_ai.tool.call.id');
  traceparents('http-requests.jsonl', [t1], null);
  for (const e of posts) expect(e.contentType === 'application/x-protobuf', 'protobuf is the default protocol');
}

function a2a() {
  const test = one('test a2a echo');
  const t1 = one('turn 1', test.traceId);
  childOf(t1, test, 'turn');
  const seen = traceparents('a2a-requests.jsonl', [t1], null);
  expect(seen.size === 1, 'the a2a requests name the turn span');
}

function proxy() {
  const test = one('test proxied calls');
  const t1 = one('turn 1', test.traceId);
  childOf(t1, test, 'turn');
  const calls = spans.filter((s) => s.name === 'execute_tool echo' && s.attributes['ananke.tool.source'] === 'proxy');
  expect(calls.length === 1, `${calls.length} proxy spans for echo, expected 1`);
  const c = calls[0] || { attributes: {}, status: {} };
  childOf(c, t1, 'proxied call');
  expect(c.attributes['gen_ai.tool.name'] === 'echo', 'proxy: gen_ai.tool.name');
  expect(c.attributes['ananke.tool.server'] === 'everything', 'proxy: ananke.tool.server');
  expect(c.attributes['ananke.tool.mocked'] === false, 'proxy: ananke.tool.mocked');
  expect(c.attributes['gen_ai.tool.call.arguments'] === '{"message":"hello proxy"}', `proxy: arguments ${c.attributes['gen_ai.tool.call.arguments']}`);
  expect(/Echo: hello proxy/.test(c.attributes['gen_ai.tool.call.result'] || ''), 'proxy: result');
}

function dynamic() {
  const test = one('test expense, simulated');
  const sims = spans.filter((s) => s.name === 'simulator simulator').sort((a, b) => a.attributes['ananke.simulator.turn'] - b.attributes['ananke.simulator.turn']);
  expect(sims.length === 2, `${sims.length} simulator spans, expected 2`);
  sims.forEach((s, k) => {
    childOf(s, test, 'simulator call');
    expect(s.attributes['ananke.simulator.turn'] === k, `simulator span ${k}: turn ${s.attributes['ananke.simulator.turn']}`);
    expect(s.attributes['gen_ai.operation.name'] === 'chat', 'simulator: gen_ai.operation.name');
  });
  expect(sims[0] && sims[0].attributes['ananke.simulator.reasoning'] === 'start', 'simulator: reasoning');
  const t1 = one('turn 1', test.traceId), t2 = one('turn 2', test.traceId);
  childOf(t1, test, 'turn 1');
  childOf(t2, test, 'turn 2');
  expect(t1.attributes['ananke.turn.input'] === 'Hi, I need to file an expense', 'the simulated message is the turn input');
  // each simulator request names its call's span
  const ss = traceparents('sim-requests.jsonl', sims, null);
  expect(ss.size === 2, `the simulator's requests name ${ss.size} simulator spans, expected 2`);
  // each simulator call ends before the turn it wrote starts
  if (sims.length === 2) expect(BigInt(sims[1].end) <= BigInt(t2.start), 'simulator call 2 ends after turn 2 starts');
}

function caps() {
  expect(posts.length >= 2, `${posts.length} export requests, expected the spans split in at least 2`);
  for (const e of posts) expect(e.bytes <= 1500, `an export of ${e.bytes} bytes, over max_batch_bytes 1500`);
  expect(spans.length === 3, `${spans.length} spans arrived, expected 3 (test, turn, tool call)`);
  for (const s of spans)
    for (const [k, v] of Object.entries(s.attributes))
      if (typeof v === 'string') expect(Buffer.byteLength(v) <= 8, `attribute ${k} '${v}' is over max_attribute_bytes 8`);
  const t1 = one('turn 1');
  expect(t1.attributes['ananke.turn.input'] === 'weather ', `ananke.turn.input cut to '${t1.attributes['ananke.turn.input']}', expected 'weather '`);
}

({ agui, openai, http, a2a, dynamic, proxy, caps })[what]();
if (problems.length) {
  for (const p of problems) console.log(p);
  process.exit(1);
}
