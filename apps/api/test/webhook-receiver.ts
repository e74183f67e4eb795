import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { event?: string; id?: string; data?: Record<string, unknown> } | undefined;
  at: number;
}

export interface Reply {
  status: number;
  /** JSON-encoded, except a Buffer, which is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** How the receiver answers a request (at once, or when the promise settles); the default echoes challenges and accepts events. */
export type Behaviour = (request: ReceivedRequest, nth: number) => Reply | Promise<Reply>;

export const echoChallenge: Behaviour = (req) =>
  req.json?.event === 'challenge' ? { status: 200, body: { token: req.json.data?.token } } : { status: 200, body: { ok: true } };

/**
 * A real webhook receiver on 127.0.0.1 for the end-to-end tests: records every request and answers as
 * the test's behaviour says, per path. It can be stopped and started again on the same port.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private server?: Server;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: ReceivedRequest['json'];
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const path = (req.url ?? '/').split('?')[0];
        const request: ReceivedRequest = { path, headers: req.headers, body, json, at: Date.now() };
        this.requests.push(request);
        const nth = this.requests.filter((r) => r.path === path).length;
        const reply = await (this.behaviours.get(path) ?? echoChallenge)(request, nth);
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  events(path: string): ReceivedRequest[] {
    return this.at(path).filter((r) => r.json?.event === 'task_completed');
  }
}

/**
 * A receiver that accepts the connection and never answers: the request's bytes are read and nothing is
 * ever written back, so each request to it runs until the sender's total timeout.
 */
export class SilentReceiver {
  /** Connections accepted so far (one per request: nothing is answered, so none is reused). */
  accepted = 0;
  private readonly sockets = new Set<Socket>();
  private server?: ReturnType<typeof createTcpServer>;
  port = 0;

  async start(): Promise<this> {
    const server = createTcpServer((socket) => {
      this.accepted += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.resume();
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }
}
