import { connect, createServer, type Socket } from 'node:net';

/** A TCP proxy whose connections can be frozen: a peer that stops answering but keeps the socket up. */
export interface FreezableProxy {
  port: number;
  /**
   * From now on, the connections open now pass nothing either way; their sockets stay open, so TCP
   * (and its keepalive) sees nothing wrong. Connections made later pass as usual, like a failover's new
   * primary behind the same address.
   */
  freeze(): void;
  /** How many of the frozen connections the client side still holds open. */
  frozenOpen(): number;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket; frozen: boolean }>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream, frozen: false };
    pairs.add(pair);
    client.on('data', (chunk) => pair.frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => pair.frozen || client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    client.on('error', end);
    // A frozen connection's server side going away must not tell the client anything either.
    upstream.on('close', () => pair.frozen || end());
    upstream.on('error', () => pair.frozen || end());
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    freeze: () => {
      for (const pair of pairs) pair.frozen = true;
    },
    frozenOpen: () => [...pairs].filter((pair) => pair.frozen && !pair.client.destroyed).length,
    close: async () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
