import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: IncomingHttpHeaders;
  json: { event?: string; id?: string; data?: { token?: string; task?: { task_uuid?: string } } };
}

/**
 * A requester's webhook endpoint on 127.0.0.1: answers the challenge with its token, takes every event
 * with 200 and `{"received": true}` (or refuses it with 410 while `refusing`), and keeps what arrived.
 */
export class CallbackReceiver {
  readonly deliveries: Delivery[] = [];
  /** While true, events are answered 410 Gone, which ends them as failed with no retry. */
  refusing = false;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let json: Delivery['json'] = {};
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // Not JSON: recorded as an empty event.
        }
        this.deliveries.push({ headers: req.headers, json });
        const refused = this.refusing && json.event !== 'challenge';
        const body = json.event === 'challenge' ? { token: json.data?.token } : { received: !refused };
        res.writeHead(refused ? 410 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/crowdbox`;
    return this;
  }

  /** The task_completed events, in arrival order. */
  completions(): Delivery[] {
    return this.deliveries.filter((d) => d.json.event === 'task_completed');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
