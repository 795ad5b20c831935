// @ag-ui/client's own SSE + AG-UI event decoding over a recorded stream, for
// bench/hotpaths.sh:  node agui_decode.mjs FILE [verify]
// The file is pushed in 64 KiB chunks through transformHttpEventStream (the
// client's SSE parser: UTF-8 decoding, framing, JSON.parse, the event type
// check), as HttpAgent does with a response body; with `verify`, also
// through verifyEvents (the client's conformance checks). Prints one line of
// JSON: bytes, events, seconds (best of 3 passes).
import { readFileSync } from "node:fs";
import { Subject } from "rxjs";
import { transformHttpEventStream, verifyEvents } from "@ag-ui/client";

const [file, mode] = process.argv.slice(2);
const buf = readFileSync(file);
const CHUNK = 64 * 1024;

function pass() {
  const src = new Subject();
  let events$ = transformHttpEventStream(src);
  if (mode === "verify") events$ = events$.pipe(verifyEvents());
  let n = 0, err = null;
  events$.subscribe({ next: () => n++, error: (e) => (err = e) });
  const t0 = process.hrtime.bigint();
  src.next({ type: "headers", status: 200, headers: new Headers({ "content-type": "text/event-stream" }) });
  for (let i = 0; i < buf.length; i += CHUNK) src.next({ type: "data", data: buf.subarray(i, i + CHUNK) });
  src.complete();
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (err) throw err;
  return { n, s };
}

let best = null;
for (let k = 0; k < 3; k++) {
  const r = pass();
  if (!best || r.s < best.s) best = r;
}
console.log(JSON.stringify({ bytes: buf.length, events: best.n, seconds: best.s }));
