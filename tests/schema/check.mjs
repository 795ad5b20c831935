// Checks schema/*.schema.json against the files ananke reads:
//  - every example and every accepted end-to-end test/config file validates;
//  - the malformed files a schema can see are rejected;
//  - a table of small cases gets the same verdict from the schema as from
//    `ananke validate` (when ANANKE names the binary), so the schemas follow
//    the loaders rather than the other way round;
//  - the definitions both schemas share are identical (they are copies, so
//    editors need no cross-file $ref);
//  - the compare-report.json files `ananke compare` wrote (COMPARE_REPORTS)
//    validate against schema/compare-report.schema.json, and broken copies
//    of them (an extra member, an absolute href, an unknown gate ...) do not.
// Usage: node check.mjs  (env: ANANKE=path/to/ananke, INIT_DIR=output of `ananke init`,
//                         COMPARE_REPORTS=report.json[:report.json...])
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import YAML from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const rel = (p) => (path.relative(root, p).startsWith('..') ? p : path.relative(root, p));
let pass = 0;
let fail = 0;
const ok = (what) => { pass++; console.log(`ok   ${what}`); };
const bad = (what, why) => { fail++; console.log(`FAIL ${what}: ${why}`); };

const load = (name) => JSON.parse(fs.readFileSync(path.join(root, 'schema', name), 'utf8'));
const schemas = { config: load('ananke.config.schema.json'), test: load('ananke.test.schema.json') };
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
const validate = { config: ajv.compile(schemas.config), test: ajv.compile(schemas.test) };

function why(errors) {
  return errors.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

// { valid, reason }: YAML syntax errors count as invalid (ananke refuses them too)
function check(kind, text) {
  let doc;
  try {
    doc = YAML.parse(text, { uniqueKeys: true });
  } catch (e) {
    return { valid: false, reason: `YAML: ${e.message.split('\n')[0]}` };
  }
  const v = validate[kind];
  return v(doc) ? { valid: true } : { valid: false, reason: why(v.errors) };
}

function expectFile(kind, file, wantValid) {
  const r = check(kind, fs.readFileSync(file, 'utf8'));
  const what = `${rel(file)} ${wantValid ? 'valid' : 'rejected'} (${kind} schema)`;
  if (r.valid === wantValid) ok(wantValid ? what : `${what}: ${r.reason}`);
  else bad(what, wantValid ? r.reason : 'the schema accepts it');
}

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'out') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out.sort();
}
const isTest = (p) => /\.test\.ya?ml$/.test(p);
const isConfig = (p) => path.basename(p) === 'ananke.config.yaml';

// 1. examples: all valid
for (const f of walk(path.join(root, 'examples'))) {
  if (isTest(f)) expectFile('test', f, true);
  else if (isConfig(f)) expectFile('config', f, true);
}

// 2. end-to-end cases ananke accepts (expected exit other than 2), and the shared config
const e2e = path.join(root, 'tests/e2e');
expectFile('config', path.join(e2e, 'ananke.config.yaml'), true);
for (const c of fs.readdirSync(e2e, { withFileTypes: true })) {
  if (!c.isDirectory()) continue;
  const dir = path.join(e2e, c.name);
  const exitFile = path.join(dir, 'exit');
  const exit = fs.existsSync(exitFile) ? fs.readFileSync(exitFile, 'utf8').trim() : '0';
  if (exit === '2') continue;
  for (const f of walk(dir)) {
    if (isTest(f)) expectFile('test', f, true);
    else if (isConfig(f)) expectFile('config', f, true);
  }
}

// 2b. the suites of tests/otlp/run.sh (otlp: in the config; docs/otel.md shows one)
for (const f of walk(path.join(root, 'tests/otlp/suite'))) {
  if (isTest(f)) expectFile('test', f, true);
  else if (isConfig(f)) expectFile('config', f, true);
}

// 3. malformed files a schema can see. Not listed, because only the loader
// can tell: malformed/e (a regex that does not compile), i (an unterminated
// "${"), j (an extends name missing from the config's assertions:).
const rejected = [
  ['test', 'malformed/a.test.yaml'], // misspelt key 'asert'
  ['test', 'malformed/b.test.yaml'], // turns is a string
  ['test', 'malformed/c.test.yaml'], // no version
  ['test', 'malformed/d.test.yaml'], // version 2.0
  ['test', 'malformed/f.test.yaml'], // YAML syntax error
  ['test', 'malformed/g.test.yaml'], // turn type mcp:cal
  ['test', 'malformed/h.test.yaml'], // max_idle_ms: true
  ['config', 'bad-config/ananke.config.yaml'], // misspelt key 'endpont'
  ['config', 'bad-target-type/ananke.config.yaml'], // target type agiu
];
for (const [kind, f] of rejected) expectFile(kind, path.join(e2e, f), false);

// 4. what `ananke init` writes
if (process.env.INIT_DIR) {
  expectFile('config', path.join(process.env.INIT_DIR, 'ananke.config.yaml'), true);
  expectFile('test', path.join(process.env.INIT_DIR, 'hello.test.yaml'), true);
}

// 5. small cases: the schema's verdict, and ananke's when the binary is given
const CONFIG = 'version: "1.0"\ntarget:\n  type: agui\n  endpoint: "http://127.0.0.1:9/agent"\n  agentId: x\n';
const OPENAI = 'version: "1.0"\ntarget:\n  type: openai\n  endpoint: "http://127.0.0.1:9/v1"\n  model: m\n  api_key: "${ENV.HOME}"\n  stream: false\n  max_rounds: 3\n  tools:\n    - name: t\n      parameters: {type: object}\n      result: {ok: true}\n    - name: u\n      command: [echo, hi]\n      timeout_ms: 5\n';
const CONFIG_LIB = `${CONFIG}assertions:\n  polite:\n    text:\n      must_match: "/please/i"\n`;
const TEST = 'version: "1.0"\nturns:\n  - user: hi\n';
const turnAssert = (block) => `version: "1.0"\nturns:\n  - user: hi\n    assert:\n${block.replace(/^/gm, '      ')}\n`;
const cases = [
  // [kind, name, yaml, valid]
  ['test', 'minimal test', TEST, true],
  ['test', 'version 1 as a number', 'version: 1.2\nturns:\n  - user: hi\n', true],
  ['test', 'version 1.x string', 'version: "1.7"\nturns:\n  - user: hi\n', true],
  ['test', 'version 3.0', 'version: "3.0"\nturns:\n  - user: hi\n', false],
  ['test', 'version not a number', 'version: "one"\nturns:\n  - user: hi\n', false],
  ['test', 'no turns', 'version: "1.0"\nturns: []\n', false],
  ['test', 'user turn without user', 'version: "1.0"\nturns:\n  - assert: {}\n', false],
  ['test', 'agui:connect turn', 'version: "1.0"\nturns:\n  - user: hi\n  - type: agui:connect\n', true],
  ['test', 'agui:connect with a message', 'version: "1.0"\nturns:\n  - type: agui:connect\n    user: hi\n', false],
  ['test', 'explicit user type', 'version: "1.0"\nturns:\n  - type: user\n    user: hi\n', true],
  ['test', 'null assert', 'version: "1.0"\nturns:\n  - user: hi\n    assert:\n', true],
  ['test', 'hook', 'version: "1.0"\nhooks:\n  - cmd: [true]\n    timeout_ms: 5\nturns:\n  - user: hi\n', true],
  ['test', 'hook cmd as a string', 'version: "1.0"\nhooks:\n  - cmd: "true"\nturns:\n  - user: hi\n', false],
  ['test', 'hook empty cmd', 'version: "1.0"\nhooks:\n  - cmd: []\nturns:\n  - user: hi\n', false],
  ['test', 'hook timeout 0', 'version: "1.0"\nhooks:\n  - cmd: [x]\n    timeout_ms: 0\nturns:\n  - user: hi\n', false],
  ['test', 'require shorthand', turnAssert('tools:\n  require:\n    - search\n    - name: pay\n      count: 2'), true],
  ['test', 'forbid as a string', turnAssert('tools:\n  forbid: delete'), true],
  ['test', 'forbid_calls shorthand', turnAssert('tools:\n  forbid_calls: [delete]'), true],
  ['test', 'count min/max', turnAssert('tools:\n  require:\n    - name: a\n      count: {min: 1, max: 3}'), true],
  ['test', 'count exact with min', turnAssert('tools:\n  require:\n    - name: a\n      count: {exact: 1, min: 1}'), false],
  ['test', 'count empty', turnAssert('tools:\n  require:\n    - name: a\n      count: {}'), false],
  ['test', 'count negative', turnAssert('tools:\n  require:\n    - name: a\n      count: -1'), false],
  ['test', 'require rule keys', turnAssert('tools:\n  require:\n    - name: a\n      args_match: {user.name: "^A", items.0.sku: x}\n      result_match: ok\n      result_not_match: "/err/i"\n      after: b'), true],
  ['test', 'bad argument path', turnAssert('tools:\n  require:\n    - name: a\n      args_match: {user..name: x}'), false],
  ['test', 'after in forbid_calls', turnAssert('tools:\n  forbid_calls:\n    - name: a\n      after: b'), false],
  ['test', 'require rule without name', turnAssert('tools:\n  require:\n    - count: 1'), false],
  ['test', 'tool mocks', 'version: "1.0"\ntool_mocks_strict: true\ntool_mocks:\n  - tool: a\n    args_match: {x: "^1"}\n    result: {content: []}\n  - tool: b\n    fault: {kind: timeout, after_ms: 5}\nturns:\n  - user: hi\n    tool_mocks:\n      - tool: c\n        passthrough: true\n', true],
  ['test', 'tool mock with two answers', 'version: "1.0"\ntool_mocks:\n  - tool: a\n    result: {}\n    passthrough: true\nturns:\n  - user: hi\n', false],
  ['test', 'tool mock unknown fault', 'version: "1.0"\ntool_mocks:\n  - tool: a\n    fault: {kind: hang}\nturns:\n  - user: hi\n', false],
  ['test', 'tool mock without tool', 'version: "1.0"\ntool_mocks:\n  - result: {}\nturns:\n  - user: hi\n', false],
  ['test', 'require source server', turnAssert('tools:\n  require:\n    - name: a\n      source: server'), true],
  ['test', 'require source unknown', turnAssert('tools:\n  require:\n    - name: a\n      source: proxy'), false],
  ['test', 'must_match string and list', turnAssert('text:\n  must_match: "/hi/i"\n  must_not_match: [a, b]'), true],
  ['test', 'limits and false', turnAssert('timing:\n  max_duration_ms: 10\n  max_idle_ms: false\n  max_gap_ms: 0'), true],
  ['test', 'limit true', turnAssert('timing:\n  max_gap_ms: true'), false],
  ['test', 'limit as a quoted number', turnAssert('timing:\n  max_gap_ms: "10"'), false],
  ['test', 'unknown timing key', turnAssert('timing:\n  max_wait_ms: 1'), false],
  ['test', 'text as a list', turnAssert('text: [a]'), false],
  ['test', 'tags, skip reason, only', 'version: "1.0"\ntags: [smoke, payments]\nskip: "upstream down"\nonly: false\nturns:\n  - user: hi\n', true],
  ['test', 'skip true, only true', 'version: "1.0"\nskip: true\nonly: true\nturns:\n  - user: hi\n', true],
  ['test', 'tag with a blank', 'version: "1.0"\ntags: ["two words"]\nturns:\n  - user: hi\n', false],
  ['test', 'tags as a string', 'version: "1.0"\ntags: smoke\nturns:\n  - user: hi\n', false],
  ['test', 'skip empty reason', 'version: "1.0"\nskip: ""\nturns:\n  - user: hi\n', false],
  ['test', 'only as a string', 'version: "1.0"\nonly: "yes"\nturns:\n  - user: hi\n', false],
];
const configCases = [
  ['config', 'minimal config', CONFIG, true],
  ['config', 'tool server', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [node, shop.js]}\n`, true],
  ['config', 'tool server over HTTP', `${CONFIG}tool_servers:\n  shop:\n    upstream: {endpoint: "http://127.0.0.1:9/mcp", headers: {Authorization: "Bearer x"}}\n`, true],
  ['config', 'tool server with command and endpoint', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x], endpoint: "http://127.0.0.1:9/mcp"}\n`, false],
  ['config', 'tool server headers without endpoint', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x], headers: {A: b}}\n`, false],
  ['config', 'tool server endpoint not http', `${CONFIG}tool_servers:\n  shop:\n    upstream: {endpoint: "ftp://x"}\n`, false],
  ['config', 'tool server without upstream', `${CONFIG}tool_servers:\n  shop: {}\n`, false],
  ['config', 'tool server empty command', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: []}\n`, false],
  ['config', 'tool server command a string', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: node}\n`, false],
  ['config', 'tool server unknown key', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x]}\n    mocks: []\n`, false],
  ['config', 'tool server bad name', `${CONFIG}tool_servers:\n  "a.b":\n    upstream: {command: [x]}\n`, false],
  ['config', 'tool server ignore_args and replay_max_bytes', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x]}\n    ignore_args: {pay: [request_id, "items.*.ts", "$.meta[0]"]}\n    replay_max_bytes: 1000\n`, true],
  ['config', 'tool server ignore_args not a list', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x]}\n    ignore_args: {pay: request_id}\n`, false],
  ['config', 'tool server ignore_args an empty path', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x]}\n    ignore_args: {pay: [""]}\n`, false],
  ['config', 'tool server replay_max_bytes 0', `${CONFIG}tool_servers:\n  shop:\n    upstream: {command: [x]}\n    replay_max_bytes: 0\n`, false],
  ['config', 'config with everything', `${CONFIG_LIB}`.replace('  agentId: x\n', '  agentId: x\n  threadId: "t-${ENV.HOME}"\n  headers:\n    Authorization: "Bearer x"\n  timeout_ms: 5\n  forwardedProps: {a: [1]}\n  state: null\n  assert:\n    extends: polite\n    tools:\n      forbid: [x]\n'), true],
  ['config', 'endpoint with a variable', CONFIG.replace('"http://127.0.0.1:9/agent"', '"${ENV.HOME}"'), true],
  ['config', 'endpoint not http', CONFIG.replace('http://127.0.0.1:9/agent', 'ftp://x'), false],
  ['config', 'header name with a colon', CONFIG.replace('  agentId: x\n', '  agentId: x\n  headers:\n    "X:Y": z\n'), false],
  ['config', 'timeout_ms 0', `${CONFIG}  timeout_ms: 0\n`, false],
  ['config', 'no agentId', CONFIG.replace('  agentId: x\n', ''), false],
  ['config', 'target type acp', CONFIG.replace('type: agui', 'type: acp'), false],
  ['config', 'named block with extends', `${CONFIG_LIB}  other:\n    extends: polite\n`, false],
  ['config', 'unknown top-level key', `${CONFIG}tests: []\n`, false],
  ['config', 'openai target', OPENAI, true],
  ['config', 'openai target without model', OPENAI.replace('  model: m\n', ''), false],
  ['config', 'openai params owning stream', `${OPENAI}  params: {stream: true}\n`, false],
  ['config', 'openai tool with result and command', OPENAI.replace('result: {ok: true}', 'result: 1\n      command: [x]'), false],
  ['config', 'openai max_rounds 0', `${OPENAI}  max_rounds: 0\n`, false],
  ['config', 'agents', `${CONFIG}agents:\n  judge:\n    type: openai\n    endpoint: "http://127.0.0.1:9/v1"\n    model: j\n  h:\n    type: agui\n    endpoint: "http://x"\n    agentId: h\n`, true],
  ['config', 'acp agent', `${CONFIG}agents:\n  j:\n    type: acp\n    command: x\n`, false],
  ['config', 'agent without model', `${CONFIG}agents:\n  j:\n    type: openai\n    endpoint: "http://x"\n`, false],
  // target.start (docs/config.md "Starting the agent")
  ['config', 'start by port', `${CONFIG}  start:\n    cmd: [ananke-mock, agui, --port, "8765"]\n    ready: {port: 8765}\n    timeout_ms: 5000\n    env: {A: b}\n    reuse_existing: true\n`, true],
  ['config', 'start by url, cmd a string', `${CONFIG}  start:\n    cmd: ./serve\n    ready: {url: "http://127.0.0.1:9/health"}\n`, true],
  ['config', 'start by log', `${CONFIG}  start:\n    cmd: [x]\n    ready: {log: "/listening/i"}\n`, true],
  ['config', 'start without ready', `${CONFIG}  start:\n    cmd: [x]\n`, false],
  ['config', 'start ready twice', `${CONFIG}  start:\n    cmd: [x]\n    ready: {port: 1, log: up}\n`, false],
  ['config', 'start port 0', `${CONFIG}  start:\n    cmd: [x]\n    ready: {port: 0}\n`, false],
  ['config', 'start empty cmd', `${CONFIG}  start:\n    cmd: []\n    ready: {port: 1}\n`, false],
  ['config', 'start unknown key', `${CONFIG}  start:\n    cmd: [x]\n    ready: {port: 1}\n    reuse: true\n`, false],
  ['config', 'start in a helper agent', `${CONFIG}agents:\n  j:\n    type: openai\n    endpoint: "http://x/v1"\n    model: m\n    start:\n      cmd: [x]\n      ready: {port: 1}\n`, false],
];
const ananke = process.env.ANANKE;
const tmp = ananke ? fs.mkdtempSync(path.join(os.tmpdir(), 'ananke-schema-')) : null;
function loaderVerdict(kind, text) {
  const dir = fs.mkdtempSync(path.join(tmp, 'c-'));
  fs.writeFileSync(path.join(dir, 'ananke.config.yaml'), kind === 'config' ? text : CONFIG_LIB);
  fs.writeFileSync(path.join(dir, 'a.test.yaml'), kind === 'test' ? text : TEST);
  const r = spawnSync(ananke, ['validate', '-c', 'ananke.config.yaml', 'a.test.yaml'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 2) throw new Error(`ananke validate exited ${r.status}: ${r.stderr}`);
  return { valid: r.status === 0, stderr: (r.stderr || '').trim().split('\n')[0] };
}
for (const [kind, name, text, want] of [...cases, ...configCases]) {
  const r = check(kind, text);
  const what = `case "${name}" ${want ? 'valid' : 'rejected'} (${kind} schema)`;
  if (r.valid !== want) { bad(what, want ? r.reason : 'the schema accepts it'); continue; }
  if (ananke) {
    const l = loaderVerdict(kind, text);
    if (l.valid !== want) { bad(what, `but ananke validate ${l.valid ? 'accepts it' : `refuses it: ${l.stderr}`}`); continue; }
  }
  ok(ananke ? `${what}, as ananke validate` : what);
}
if (tmp) fs.rmSync(tmp, { recursive: true, force: true });

// 6. the copies of shared definitions agree
for (const [k, v] of Object.entries(schemas.test.definitions)) {
  const c = schemas.config.definitions[k];
  if (c === undefined) continue;
  if (JSON.stringify(c) === JSON.stringify(v)) ok(`definition "${k}" identical in both schemas`);
  else bad(`definition "${k}"`, 'differs between the config and the test schema');
}

// 7. compare reports: what ananke wrote is valid; the contract is closed
const compareSchema = load('compare-report.schema.json');
const validateCompare = ajv.compile(compareSchema);
const reports = (process.env.COMPARE_REPORTS || '').split(path.delimiter).filter(Boolean);
if (process.env.COMPARE_REPORTS !== undefined && reports.length === 0)
  bad('compare reports', 'COMPARE_REPORTS is set but names no file');
for (const f of reports) {
  const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
  if (validateCompare(doc)) ok(`${rel(f)} valid (compare-report schema)`);
  else bad(`${rel(f)} valid (compare-report schema)`, why(validateCompare.errors));
}
if (reports.length) {
  const base = JSON.parse(fs.readFileSync(reports[0], 'utf8'));
  const item = (d) => d.items.find((i) => i.artifacts.new_case_response_href) ?? d.items[0];
  const broken = [
    ['an unknown top-level member', (d) => { d.extra = 1; }],
    ['contract_version 4', (d) => { d.contract_version = 4; }],
    ['no summary.data_coverage', (d) => { delete d.summary.data_coverage; }],
    ['an unknown gate', (d) => { item(d).gate_recommendation = 'maybe'; }],
    ['an unknown root cause', (d) => { item(d).new_root = 'bad_luck'; }],
    ['an unknown artifact', (d) => { item(d).artifacts.new_other_href = 'x.json'; }],
    ['an absolute href', (d) => { item(d).artifacts.new_case_response_href = '/etc/passwd'; }],
    ['an href with ..', (d) => { item(d).artifacts.new_case_response_href = 'new/../../x.json'; }],
    ['an href with a scheme', (d) => { item(d).artifacts.new_case_response_href = 'https://x/y.json'; }],
    ['an href with a backslash', (d) => { item(d).artifacts.new_case_response_href = 'new\\x.json'; }],
    ['a signal without evidence', (d) => {
      d.items[0].security.new.signals = [{ kind: 'pii_in_output', severity: 'high', confidence: 'medium',
                                           title: 't', details: {}, evidence_refs: [] }];
    }],
    ['an unknown availability', (d) => { item(d).data_availability.new.status = 'gone'; }],
    ['an extra quality flag', (d) => { d.quality_flags.ok = true; }],
  ];
  for (const [name, mutate] of broken) {
    const d = structuredClone(base);
    mutate(d);
    const what = `compare report with ${name} rejected`;
    if (validateCompare(d)) bad(what, 'the schema accepts it');
    else ok(what);
  }
}

console.log(`schema: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
