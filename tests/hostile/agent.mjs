// A hostile AG-UI agent for tests/hostile/run.sh: what it does depends on the
// last user message's first word (the "mode"). It listens on 127.0.0.1 only
// and writes its port to the file given as argv[2]; SIGTERM stops it.
//
//   silent      accepts the request and never answers (no status line)
//   trickle     RUN_STARTED, then one byte of a text delta per second, forever
//   huge        one 200 MB event
//   endless     valid TEXT_MESSAGE_CONTENT events, forever, as fast as it can
//   calls       100001 tool calls (one over the default max_tool_calls)
//   badutf8     a text delta with bytes that are not UTF-8
//   nul         a NUL byte inside an event's data, and \u0000 in a string
//   deep        an event nested 100000 levels deep
//   dupids      the same messageId started twice while open
//   dupcalls    the same toolCallId started twice while open
//   unknownid   TEXT_MESSAGE_CONTENT for a message never started
//   endonly     TOOL_CALL_END for a call never started
//   backtrack   5000 "a"s and a "!": a text to backtrack on
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

// write until the client goes away, respecting backpressure
function pump(res, next) {
  let open = true;
  res.on('close', () => { open = false; });
  const go = () => {
    while (open) {
      const chunk = next();
      if (chunk === null) { res.end(); return; }
      if (!res.write(chunk)) { res.once('drain', go); return; }
    }
  };
  go();
}

const modes = {
  silent() { /* never answer */ },
  trickle(res, b) {
    started(res, b);
    res.write('data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}\n\n');
    const t = setInterval(() => res.write('x'), 1000);
    res.on('close', () => clearInterval(t));
  },
  huge(res, b) {
    started(res, b);
    res.write('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"');
    const mb = 'a'.repeat(1 << 20);
    let n = 0;
    pump(res, () => (n++ < 200 ? mb : null));
  },
  endless(res, b) {
    started(res, b);
    res.write(ev({type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant'}));
    const e = ev({type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'more '.repeat(200)});
    const batch = e.repeat(64);
    pump(res, () => batch);
  },
  calls(res, b) {
    started(res, b);
    let i = 0;
    pump(res, () => {
      if (i > 100000) { finished(res, b); return null; }
      const id = `c${i++}`;
      return ev({type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'spam'}) +
             ev({type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{}'}) +
             ev({type: 'TOOL_CALL_END', toolCallId: id});
    });
  },
  badutf8(res, b) {
    started(res, b);
    res.write(ev({type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant'}));
    res.write(Buffer.concat([Buffer.from('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"bad '),
                             Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(' bytes"}\n\n')]));
    res.write(ev({type: 'TEXT_MESSAGE_END', messageId: 'm'}));
    finished(res, b);
  },
  nul(res, b) {
    started(res, b);
    res.write(ev({type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant'}));
    res.write('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\\u0000b"}\n\n');
    res.write(Buffer.concat([Buffer.from('data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"c'),
                             Buffer.from([0]), Buffer.from('d"}\n\n')]));
    res.write(ev({type: 'TEXT_MESSAGE_END', messageId: 'm'}));
    finished(res, b);
  },
  deep(res, b) {
    started(res, b);
    const n = 100000;
    res.write('data: {"type":"CUSTOM","name":"deep","value":' + '['.repeat(n) + ']'.repeat(n) + '}\n\n');
    text(res, 'm', 'still here');
    finished(res, b);
  },
  dupids(res, b) {
    started(res, b);
    res.write(ev({type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant'}));
    res.write(ev({type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant'}));
    finished(res, b);
  },
  dupcalls(res, b) {
    started(res, b);
    res.write(ev({type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'dup'}));
    res.write(ev({type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'dup'}));
    finished(res, b);
  },
  unknownid(res, b) {
    started(res, b);
    res.write(ev({type: 'TEXT_MESSAGE_CONTENT', messageId: 'ghost', delta: 'boo'}));
    finished(res, b);
  },
  endonly(res, b) {
    started(res, b);
    res.write(ev({type: 'TOOL_CALL_END', toolCallId: 'never-started'}));
    finished(res, b);
  },
  backtrack(res, b) {
    started(res, b);
    text(res, 'm', 'a'.repeat(5000) + '!');
    finished(res, b);
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
