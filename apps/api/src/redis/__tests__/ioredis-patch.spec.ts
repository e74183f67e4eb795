import Redis from 'ioredis';
import { within } from '../../common/within';
import { eventually } from '../../../test/eventually';
import { freePort } from '../../../test/free-port';

/**
 * patches/ioredis+5.9.2.patch (applied by `npm ci`'s postinstall, patch-package): a client told to
 * disconnect while it waits to reconnect ends, emitting 'end', as one that is connected does. Unpatched,
 * it stayed 'reconnecting' for good and BullMQ's Worker.close(), which waits for that 'end', never
 * returned (worker-close.e2e.spec.ts has what that did to a process's shutdown).
 */
/** A client for a port nothing listens on, which fails to connect and waits a minute to try again. */
async function aClientWaitingToReconnect(): Promise<Redis> {
  // disconnectTimeout 0: ioredis arms that timer on each disconnect to destroy a socket that is already
  // gone here, which would keep the Jest worker alive for 2 s after the file.
  const client = new Redis({ port: await freePort(), host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 60_000, disconnectTimeout: 0 });
  client.on('error', () => undefined);
  expect(await eventually(() => client.status === 'reconnecting', 5_000)).toBe(true);
  return client;
}

describe('the ioredis patch', () => {
  it("ends a client that is waiting to reconnect, with 'end', when it is told to disconnect", async () => {
    const client = await aClientWaitingToReconnect();
    try {
      const ended = new Promise<'ended'>((resolve) => client.once('end', () => resolve('ended')));
      const queued = client.get('k').then(
        () => 'answered',
        (error: Error) => error.message,
      );
      client.disconnect();
      expect(await within(ended, 1_000, 'no end')).toBe('ended');
      expect(client.status).toBe('end');
      // What waited for the connection fails at once rather than waiting for a connection that will not come.
      expect(await within(queued, 1_000, 'still waiting')).toBe('Connection is closed.');
    } finally {
      client.disconnect();
    }
  });

  it('still waits for the next attempt when told to disconnect in order to reconnect', async () => {
    const client = await aClientWaitingToReconnect();
    try {
      client.disconnect(true);
      expect(client.status).toBe('reconnecting');
    } finally {
      client.disconnect();
    }
  });
});
