// The HTTP side shared by the framework peers (tests/peers/<framework>/server.mjs):
// POST a RunAgentInput, get the framework's AG-UI events as SSE, written by
// the framework's own encoder. Imports no npm package: the caller passes its
// agent and its encoder (each framework has its own node_modules).
//
// usage of a server: node server.mjs [--port-file FILE] [--requests FILE]
//   listens on a free port of 127.0.0.1; the port is written to FILE (temp +
//   rename); each request body is appended to --requests, one JSON a line.
import { createServer } from "node:http";
import { appendFileSync, renameSync, writeFileSync } from "node:fs";

function parseArgs(name, argv) {
  const o = { portFile: null, requests: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--port-file") o.portFile = argv[++i];
    else if (argv[i] === "--requests") o.requests = argv[++i];
    else {
      process.stderr.write(`${name}: unknown argument '${argv[i]}'\n`);
      process.exit(2);
    }
  }
  return o;
}

function reply(res, status, obj) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(obj));
}

// aguiHandler({ run, encoder }): a node:http handler. Every POST (any path) is
// a run: run(input) is the framework's Observable of AG-UI events, each written
// by encoder(req) (the framework's EventEncoder).
export function aguiHandler({ run, encoder }, opts) {
  return (req, res) => {
    if (req.method !== "POST") return reply(res, 405, { error: "only POST" });
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let input;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch (e) {
        return reply(res, 400, { error: `invalid JSON: ${e.message}` });
      }
      if (opts?.requests)
        appendFileSync(opts.requests, JSON.stringify({ headers: req.headers, body: input }) + "\n");
      let events;
      try {
        events = run(input);
      } catch (e) {
        process.stderr.write(`${opts?.name ?? "peer"}: ${e?.stack ?? e}\n`);
        return reply(res, 500, { error: String(e?.message ?? e) });
      }
      const enc = encoder(req);
      res.writeHead(200, { "Content-Type": enc.getContentType(), "Cache-Control": "no-cache" });
      events.subscribe({
        next: (ev) => res.write(enc.encode(ev)),
        error: (e) => {
          process.stderr.write(`${opts?.name ?? "peer"}: ${e?.stack ?? e}\n`);
          res.end();
        },
        complete: () => res.end(),
      });
    });
  };
}

// listen(name, makeHandler): parses the arguments, serves makeHandler(opts)
// on a free port of 127.0.0.1, writes the port file, exits on SIGTERM/SIGINT.
export function listen(name, makeHandler) {
  const opts = { name, ...parseArgs(name, process.argv.slice(2)) };
  const server = createServer(makeHandler(opts));
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    if (opts.portFile) {
      const tmp = `${opts.portFile}.tmp.${process.pid}`;
      writeFileSync(tmp, `${port}\n`);
      renameSync(tmp, opts.portFile);
    }
    process.stdout.write(`http://127.0.0.1:${port}\n`);
  });
  server.on("error", (e) => {
    process.stderr.write(`${name}: ${e.message}\n`);
    process.exit(1);
  });
  for (const sig of ["SIGTERM", "SIGINT"]) {
    process.on(sig, () => {
      server.close();
      server.closeAllConnections?.();
      process.exit(0);
    });
  }
}
