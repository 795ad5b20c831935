// `node --import ./node20.mjs node_modules/.bin/conformance ...`: the kit's
// import of `fs` goes to fs-shim.mjs on a Node without fs.globSync.
import fs from 'node:fs';
import { register } from 'node:module';

if (!fs.globSync)
  register('data:text/javascript,' + encodeURIComponent(`
    export async function resolve(spec, ctx, next) {
      if ((spec === 'fs' || spec === 'node:fs') && ctx.parentURL && ctx.parentURL.includes('/@modelcontextprotocol/conformance/'))
        return { url: ${JSON.stringify(new URL('./fs-shim.mjs', import.meta.url).href)}, shortCircuit: true };
      return next(spec, ctx);
    }`));
