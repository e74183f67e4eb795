// Port helpers: the embedded services take whatever port the OS hands out, so `npm start` never fights
// a PostgreSQL or Redis that is already installed on the machine.
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether host:port can be bound; checked before booting so a busy port gives a clear message. */
export function portIsFree(host, port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
