'use strict';
// The launcher of the npm package `ananke` (as esbuild and biome do it): finds
// the platform package npm installed as an optional dependency
// (@ananke/linux-x64) and runs its native binary with the same arguments.
// The exit code passes through; SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and
// SIGUSR2 sent to this process go to the binary; if the binary is killed by a
// signal, this process dies by the same signal. ANANKE_BINARY_DIR (a
// directory holding ananke and ananke-mock) overrides the lookup.
const { spawn } = require('child_process');
const path = require('path');
const fs = require('fs');
const os = require('os');

// one package per platform make npm is run on (only linux-x64 is built and tested today)
const PLATFORMS = { 'linux x64': '@ananke/linux-x64', 'linux arm64': '@ananke/linux-arm64' };
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'];

function fail(msg) {
  process.stderr.write(`ananke: ${msg}\n`);
  process.exit(2);
}

function binaryPath(name) {
  if (process.env.ANANKE_BINARY_DIR)
    return path.join(process.env.ANANKE_BINARY_DIR, name);
  const key = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg)
    fail(`no prebuilt binary for '${key}' (there is one for: ${Object.keys(PLATFORMS).join(', ')}); ` +
         'build it from source: https://github.com/ananke/ananke/blob/main/docs/install.md');
  let manifest;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch (e) {
    fail(`the package '${pkg}' is not installed: npm installs it as an optional dependency of ` +
         `'ananke'; reinstall without --omit=optional / --no-optional`);
  }
  const bin = path.join(path.dirname(manifest), 'bin', name);
  if (!fs.existsSync(bin))
    fail(`'${bin}' is missing from the package '${pkg}'`);
  return bin;
}

function run(name) {
  const bin = binaryPath(name);
  const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });
  const forward = (sig) => {
    try { child.kill(sig); } catch (e) { /* already gone */ }
  };
  for (const sig of FORWARDED)
    process.on(sig, forward);
  child.on('error', (e) => fail(`cannot run '${bin}': ${e.message}`));
  child.on('exit', (code, signal) => {
    for (const sig of FORWARDED)
      process.removeListener(sig, forward);
    if (signal) {
      process.kill(process.pid, signal); // die as the binary died
      // ... unless this process ignores the signal (a shell's background job)
      setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 200).unref();
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

module.exports = { run, binaryPath };
