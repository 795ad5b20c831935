// The names server-everything lists to a client with the SDK's default
// capabilities (as tests/tools/agent.cjs connects), one a line, every
// page: what tool coverage's "exposed" must equal. Used by
// tests/tools/coverage.sh.
'use strict';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

(async () => {
  const c = new Client({ name: 'coverage-check', version: '1.0.0' });
  await c.connect(new StdioClientTransport({
    command: 'node', args: [process.env.MCP_EVERYTHING, 'stdio'], stderr: 'ignore',
  }));
  let cursor;
  do {
    const r = await c.listTools(cursor ? { cursor } : {});
    for (const t of r.tools) console.log(t.name);
    cursor = r.nextCursor;
  } while (cursor);
  await c.close();
})().catch((e) => { console.error(e); process.exit(1); });
