// Node 20 has no fs.globSync (22 does); the kit imports it for its `tier`
// report only. This module is `fs` plus a globSync that says so.
export * from 'node:fs';
export { default } from 'node:fs';
export function globSync() {
  throw new Error('fs.globSync needs Node 22 (only the kit\'s tier report uses it)');
}
