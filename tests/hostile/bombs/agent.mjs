// A hostile AG-UI agent that sends amplification bombs, for
// tests/hostile/bombs.sh: what it does depends on the last user message's
// first word (the "mode"). It listens on 127.0.0.1 only and writes its
// port to the file given as argv[2]; SIGTERM stops it.
//
//   copybomb    one STATE_DELTA: /a = [0], then 30 copies of /a into /a/-
//               (each doubles it: 2^30 elements, 60 GB, without a cap)
//   bigsnap     a STATE_SNAPSHOT of 15 MB of [] (5 million arrays)
//   shiftbomb   a snapshot of an array of 200000 numbers, then one delta of
//               100000 inserts at its front (each shifts the whole array:
//               160 GB of memmove without a cap)
//   deepstate   a STATE_SNAPSHOT nested 2040 levels deep
//   argsbomb    a tool call whose arguments are 15 MB of [] (5 million arrays)
//   warnbomb    1000000 events of an unknown type (each one a warning)
//   bignum      integers beyond int64 and reals beyond a double in fields
//               whose value the spec does not need, and usage counts at
//               INT64_MAX (summed: they must not overflow)
//   fine        a well-behaved run: "All good."
import http from 'node:http';
import fs from 'node:fs';

const ev = (o) => `data: ${JSON.stringify(o)}\n\n`;
const started = (res, b) => {
  res.writeHead(200, {'Content-Type': 'text/event-stream'});
  res.write(ev({type: 'RUN_STARTED', threadId: b.threadId, runId: b.runId}));
};
const finished = (res, b) => {
  res.write(ev({type: 'RUN_FINISHED', threadId: b.threadId, runId: b.runId}));
  res.end();
};
const text = (res, id, s) => {
  res.write(ev({type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant'}));
  res.write(ev({type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: s}));
  res.write(ev({type: 'TEXT_MESSAGE_END', messageId: id}));
};

// write chunks until next() gives null or the client goes away
function pump(res, next, done) {
  let open = true;
  res.on('close', () => { open = false; });
  const go = () => {
    while (open) {
      const chunk = next();
      if (chunk === null) { done(); return; }
      if (!res.write(chunk)) { res.once('drain', go); return; }
    }
  };
  go();
}

const modes = {
  copybomb(res, b) {
    started(res, b);
    const ops = [{op: 'add', path: '/a', value: [0]}];
    for (let i = 0; i < 30; i++) ops.push({op: 'copy', from: '/a', path: '/a/-'});
    res.write(ev({type: 'STATE_DELTA', delta: ops}));
    text(res, 'm', 'after the bomb');
    finished(res, b);
  },
  bigsnap(res, b) {
    started(res, b);
    const n = 5 * 1000 * 1000;
    res.write('data: {"type":"STATE_SNAPSHOT","snapshot":[' + '[],'.repeat(n - 1) + '[]]}\n\n');
    finished(res, b);
  },
  shiftbomb(res, b) {
    started(res, b);
    res.write(ev({type: 'STATE_SNAPSHOT', snapshot: {a: new Array(200000).fill(1)}}));
    res.write('data: {"type":"STATE_DELTA","delta":[' +
              '{"op":"add","path":"/a/0","value":0},'.repeat(99999) +
              '{"op":"add","path":"/a/0","value":0}]}\n\n');
    finished(res, b);
  },
  argsbomb(res, b) {
    started(res, b);
    res.write(ev({type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'bomb'}));
    res.write(ev({type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '[' + '[],'.repeat(5000000) + '[]]'}));
    res.write(ev({type: 'TOOL_CALL_END', toolCallId: 'c1'}));
    text(res, 'm', 'after the bomb');
    finished(res, b);
  },
  deepstate(res, b) {
    started(res, b);
    const n = 2040;
    res.write('data: {"type":"STATE_SNAPSHOT","snapshot":' + '['.repeat(n) + ']'.repeat(n) + '}\n\n');
    finished(res, b);
  },
  warnbomb(res, b) {
    started(res, b);
    const e = 'data: {"type":"NO_SUCH_EVENT"}\n\n'.repeat(1000);
    let i = 0;
    pump(res, () => (i++ < 1000 ? e : null), () => {
      text(res, 'm', 'after the flood');
      finished(res, b);
    });
  },
  bignum(res, b) {
    res.writeHead(200, {'Content-Type': 'text/event-stream'});
    res.write(`data: {"type":"RUN_STARTED","threadId":"${b.threadId}","runId":"${b.runId}",` +
              '"rawEvent":{"seq":123456789012345678901234567890,"x":1e999}}\n\n');
    res.write('data: {"type":"STATE_SNAPSHOT","snapshot":{"big":-99999999999999999999}}\n\n');
    text(res, 'm', 'numbers kept');
    res.write(`data: {"type":"RUN_FINISHED","threadId":"${b.threadId}","runId":"${b.runId}",` +
              '"usage":[{"inputTokens":9223372036854775807,"outputTokens":9223372036854775807}]}\n\n');
    res.write(`data: {"type":"RUN_STARTED","threadId":"${b.threadId}","runId":"${b.runId}-2"}\n\n`);
    res.write(`data: {"type":"RUN_FINISHED","threadId":"${b.threadId}","runId":"${b.runId}-2",` +
              '"usage":[{"inputTokens":9223372036854775807,"outputTokens":1}]}\n\n');
    res.end();
  },
  fine(res, b) {
    started(res, b);
    text(res, 'm', 'All good.');
    finished(res, b);
  },
};

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let b = {};
    try { b = JSON.parse(body); } catch { /* answered as "fine" */ }
    const msgs = Array.isArray(b.messages) ? b.messages : [];
    const last = [...msgs].reverse().find((m) => m.role === 'user');
    const content = last && typeof last.content === 'string' ? last.content : '';
    const mode = content.split(/\s+/)[0];
    (modes[mode] || modes.fine)(res, b);
  });
});
server.keepAliveTimeout = 1;
server.listen(0, '127.0.0.1', () => fs.writeFileSync(process.argv[2], String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
