import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { within } from '../../common/within';
import { WebhookSender, type SendOutcome } from '../webhook-sender';

/**
 * The HTTP client's limits (issue 4: 3 s to connect, 10 s in all, a cap on the reply read, no
 * redirects), each against a real socket on loopback, with short limits so no test waits for long.
 */
describe('WebhookSender limits', () => {
  const servers: Server[] = [];
  const senders: WebhookSender[] = [];
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    for (const c of children.splice(0)) c.kill('SIGKILL');
    await Promise.all(senders.splice(0).map((s) => s.close()));
    const closing = servers.splice(0);
    for (const s of closing) s.closeAllConnections();
    await Promise.all(closing.map((s) => new Promise((done) => s.close(done))));
  });

  const sender = (limits: { connectTimeoutMs?: number; totalTimeoutMs?: number } = {}) => {
    const s = new WebhookSender({
      connectTimeoutMs: limits.connectTimeoutMs ?? 3000,
      totalTimeoutMs: limits.totalTimeoutMs ?? 10_000,
      allowPrivateNetworks: true,
      perReceiver: 4,
    });
    senders.push(s);
    return s;
  };

  const serve = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };

  // With no limit to its patience, a send never answers busy.
  const post = async (s: WebhookSender, url: string): Promise<SendOutcome> => (await s.postUnlessBusy(url, '{}', {}, Infinity)) as SendOutcome;

  it('stops reading a reply at its cap and keeps the status', async () => {
    // An endless reply: without the cap the read would only end at the total timeout, with no status.
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(16 * 1024);
      const pump = () => {
        while (res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const outcome = await post(sender({ totalTimeoutMs: 5000 }), url);
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe(200);
    expect(outcome.reply.length).toBe(64 * 1024);
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  it('keeps the first KiB of the reply\'s bytes for the log, cut before decoding', async () => {
    const binary = await serve((_req, res) => res.end(Buffer.alloc(2048, 0xff)));
    const outcome = await post(sender({ totalTimeoutMs: 5000 }), binary);
    // 1,024 bytes that are not UTF-8: 1,024 replacement characters, not the 341 of 1,024 bytes of them.
    expect(outcome.excerpt).toBe('\uFFFD'.repeat(1024));
    const text = await serve((_req, res) => res.end(`${'a'.repeat(1023)}é and more`));
    expect((await post(sender({ totalTimeoutMs: 5000 }), text)).excerpt).toBe(`${'a'.repeat(1023)}\uFFFD`);
  });

  it('gives up on a reply that is not complete within the total time, counting the body too', async () => {
    // Headers at once, then a body that never ends: the limit is on the whole reply, not its first byte.
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const outcome = await post(sender({ totalTimeoutMs: 300 }), url);
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/^timeout/);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(250);
    expect(outcome.durationMs).toBeLessThan(3000);
  });

  /**
   * A listener whose process never accepts: once its backlog is full, the kernel drops further SYNs,
   * so a connect neither succeeds nor fails (as with a firewall that drops packets).
   */
  const unanswering = async (): Promise<string> => {
    const child = spawn(process.execPath, ['-e', `
      const server = require('node:net').createServer();
      server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
        process.stdout.write(String(server.address().port));
        setTimeout(() => { for (;;); }, 50); // stop accepting for good
      });`]);
    children.push(child);
    const [line] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const port = Number(String(line).trim());
    await new Promise((r) => setTimeout(r, 200));
    await fillBacklog(port, sockets);
    return `http://127.0.0.1:${port}/hook`;
  };

  it('gives up connecting after the connect timeout, before the total time runs out', async () => {
    const outcome = await post(sender({ connectTimeoutMs: 300, totalTimeoutMs: 8000 }), await unanswering());
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/CONNECT_TIMEOUT/);
    expect(outcome.durationMs).toBeLessThan(4000);
  });

  it('keeps to the total time when it is shorter than the connect timeout', async () => {
    // undici does not cut a connect short on the request's abort signal: only the connect timeout does.
    const outcome = await post(sender({ connectTimeoutMs: 8000, totalTimeoutMs: 300 }), await unanswering());
    expect(outcome.status).toBeUndefined();
    expect(outcome.durationMs).toBeLessThan(4000);
  });

  it('does not follow a redirect', async () => {
    let reached = 0;
    const elsewhere = await serve((_req, res) => {
      reached += 1;
      res.end('ok');
    });
    const url = await serve((_req, res) => {
      res.writeHead(307, { location: elsewhere });
      res.end();
    });
    const outcome = await post(sender(), url);
    expect(outcome.status).toBe(307);
    expect(reached).toBe(0);
  });
});

/**
 * Opens connections to a listener that does not accept until one no longer completes its handshake
 * within 200 ms: from then on the kernel drops new SYNs to that port.
 */
async function fillBacklog(port: number, keep: Socket[]): Promise<void> {
  for (let i = 0; i < 64; i++) {
    const socket = connect({ port, host: '127.0.0.1' });
    keep.push(socket);
    socket.on('error', () => undefined);
    const connected = await within(
      once(socket, 'connect').then(() => true),
      200,
      false,
    );
    if (!connected) return;
  }
  throw new Error('the listener kept accepting connections');
}
