// A test OTLP/HTTP trace receiver (tests/otlp/run.sh): decodes each export
// with the official OpenTelemetry definitions (the protobufjs types that
// @opentelemetry/otlp-transformer ships, generated from opentelemetry-proto)
// or as OTLP JSON, and appends every span, flattened, as one JSON line.
//   node receiver.js PORT_FILE SPANS_FILE REQUESTS_FILE
// POST /v1/traces and /custom/traces: 200 {}; POST /hang/...: never answers;
// POST /fail/...: 503. Each request's path, content type and headers go to
// REQUESTS_FILE. Listens on 127.0.0.1 only.
'use strict';
const http = require('http');
const fs = require('fs');
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root');

const Req = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const [portFile, spansFile, reqFile] = process.argv.slice(2);

const hex = (b64) => Buffer.from(b64 || '', 'base64').toString('hex');

function value(v) {
  if (v === undefined || v === null) return null;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('boolValue' in v) return v.boolValue;
  if ('doubleValue' in v) return Number(v.doubleValue);
  return JSON.stringify(v);
}
function attrs(list) {
  const o = {};
  for (const kv of list || []) o[kv.key] = value(kv.value);
  return o;
}

// one shape for both encodings: ids as hex, times as strings, attributes as an object
function flatten(req, ids) {
  const out = [];
  for (const rs of req.resourceSpans || []) {
    const resource = attrs(rs.resource && rs.resource.attributes);
    for (const ss of rs.scopeSpans || []) {
      for (const s of ss.spans || []) {
        out.push({
          resource,
          scope: ss.scope ? ss.scope.name : null,
          traceId: ids(s.traceId),
          spanId: ids(s.spanId),
          parentSpanId: s.parentSpanId ? ids(s.parentSpanId) : '',
          traceState: s.traceState || '',
          name: s.name,
          kind: s.kind || 0,
          start: String(s.startTimeUnixNano || '0'),
          end: String(s.endTimeUnixNano || '0'),
          attributes: attrs(s.attributes),
          events: (s.events || []).map((e) => ({ name: e.name, time: String(e.timeUnixNano || '0'), attributes: attrs(e.attributes) })),
          status: { code: (s.status && s.status.code) || 0, message: (s.status && s.status.message) || '' },
        });
      }
    }
  }
  return out;
}

const server = http.createServer((rq, rs) => {
  const chunks = [];
  rq.on('data', (c) => chunks.push(c));
  rq.on('end', () => {
    const body = Buffer.concat(chunks);
    const ct = rq.headers['content-type'] || '';
    fs.appendFileSync(reqFile, JSON.stringify({ path: rq.url, contentType: ct, headers: rq.headers, bytes: body.length }) + '\n');
    if (rq.url.startsWith('/hang/')) return; // never answers
    if (rq.url.startsWith('/fail/')) { rs.writeHead(503); rs.end('down'); return; }
    let spans;
    try {
      if (ct.startsWith('application/x-protobuf')) {
        const msg = Req.decode(body);
        const err = Req.verify(msg);
        if (err) throw new Error('verify: ' + err);
        spans = flatten(Req.toObject(msg, { longs: String, bytes: String, enums: Number }), hex);
      } else if (ct.startsWith('application/json')) {
        const obj = JSON.parse(body.toString('utf8'));
        // the JSON must be what the protobuf types accept too (field names, kinds)
        const err = Req.verify(Req.fromObject(JSON.parse(JSON.stringify(obj, (k, v) =>
          (k === 'traceId' || k === 'spanId' || k === 'parentSpanId') ? Buffer.from(v, 'hex').toString('base64') : v))));
        if (err) throw new Error('verify: ' + err);
        spans = flatten(obj, (h) => h);
      } else {
        throw new Error('unexpected content type ' + ct);
      }
    } catch (e) {
      fs.appendFileSync(reqFile, JSON.stringify({ error: String(e) }) + '\n');
      rs.writeHead(400, { 'content-type': 'application/json' });
      rs.end(JSON.stringify({ error: String(e) }));
      return;
    }
    for (const s of spans) fs.appendFileSync(spansFile, JSON.stringify(s) + '\n');
    rs.writeHead(200, { 'content-type': ct.startsWith('application/json') ? 'application/json' : 'application/x-protobuf' });
    rs.end(ct.startsWith('application/json') ? '{}' : Buffer.alloc(0));
  });
});
server.listen(0, '127.0.0.1', () => {
  fs.writeFileSync(portFile + '.tmp', String(server.address().port));
  fs.renameSync(portFile + '.tmp', portFile);
});
process.on('SIGTERM', () => process.exit(0));
