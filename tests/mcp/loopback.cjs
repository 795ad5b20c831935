// Preloaded into the MCP reference servers (node -r ./loopback.cjs ...):
// server-everything calls app.listen(PORT) without a host, which binds every
// interface. A test must never expose a server beyond this machine, so a
// listen() given only a port (or port 0) is bound to 127.0.0.1 instead.
//
// With LOOPBACK_PORT_FILE set, the port a server really listens on is
// written there once it listens, so that a script can start the server on
// port 0 and read the port back. The server's own "listening on port N" line
// cannot be trusted: Express 5's app.listen calls its callback on an error
// too, so an EADDRINUSE prints that line and then exits.
'use strict';
const fs = require('fs');
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const host = typeof args[1] === 'string' ? args[1] : null;
    if (!host) args.splice(1, 0, '127.0.0.1');
  } else if (args[0] && typeof args[0] === 'object' && !args[0].path && !args[0].host) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  const portFile = process.env.LOOPBACK_PORT_FILE;
  if (portFile) {
    this.once('listening', () => {
      const addr = this.address();
      if (addr && typeof addr === 'object') {
        fs.writeFileSync(portFile + '.tmp', `${addr.port}\n`);
        fs.renameSync(portFile + '.tmp', portFile);
      }
    });
  }
  return listen.apply(this, args);
};
