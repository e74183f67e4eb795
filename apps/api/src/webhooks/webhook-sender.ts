import { Agent, request } from 'undici';
import { ReceiverSlots, type Turn } from './receiver-slots';
import { forbiddenLiteralHost, receiverLookup } from './ssrf-guard';

/** Reply bytes kept for the delivery log (API.md §2: the first 1 KiB). */
export const REPLY_EXCERPT_BYTES = 1024;
/** Reply bytes read at most; a challenge answer is small, anything beyond is not read at all. */
const REPLY_READ_LIMIT_BYTES = 64 * 1024;

export interface SenderOptions {
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Requests in flight to one receiver (origin) at most; the rest wait their turn before their clock starts. */
  perReceiver: number;
}

/** What one HTTP attempt came to. `status` is absent when no reply arrived. */
export interface SendOutcome {
  status?: number;
  durationMs: number;
  error?: string;
  /** The reply body, cut at REPLY_READ_LIMIT_BYTES, as UTF-8. */
  reply: string;
  /**
   * The reply's first REPLY_EXCERPT_BYTES bytes as UTF-8, for the delivery log: cut before decoding, so
   * a binary reply (each invalid byte a 3-byte U+FFFD once decoded) still shows its first KiB.
   */
  excerpt: string;
  /** Retry-After in milliseconds, when the receiver sent a valid one. */
  retryAfterMs?: number;
}

/** Nothing was sent: the receiver kept every slot busy past the caller's patience (see ReceiverSlots). */
export interface ReceiverBusy {
  busyForMs: number;
}

/**
 * POSTs JSON to receivers: no redirects followed (a redirect could lead inside the network), 3 s to
 * connect, 10 s in all, private addresses refused at connect time unless allowed, reply read to a cap.
 * At most `perReceiver` requests go to one receiver at a time, and the pool holds as many connections
 * to it, so undici never queues a request itself: a request queued inside undici would have its 10 s
 * running while it waited behind other deliveries to the same receiver.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly slots: ReceiverSlots;

  constructor(private readonly options: SenderOptions) {
    this.slots = new ReceiverSlots(options.perReceiver);
    this.agent = new Agent({
      connect: {
        // undici does not cut a connect short on the request's abort signal, only on this timeout, so
        // a connect timeout above the total would let a silent address hold a delivery past its total.
        timeout: Math.min(options.connectTimeoutMs, options.totalTimeoutMs),
        // A lookup waits for its turn (lookup-limit.ts) no longer than the connect may take.
        lookup: receiverLookup(options.allowPrivateNetworks, Math.min(options.connectTimeoutMs, options.totalTimeoutMs)),
      },
      headersTimeout: options.totalTimeoutMs,
      bodyTimeout: options.totalTimeoutMs,
      keepAliveTimeout: 10_000,
      connections: options.perReceiver,
    });
  }

  /** Sends, or gives up without sending when the receiver has been busy for longer than `patienceMs`. */
  postUnlessBusy(url: string, body: string, headers: Record<string, string>, patienceMs: number): Promise<SendOutcome | ReceiverBusy> {
    return this.send(url, body, headers, patienceMs);
  }

  private async send(url: string, body: string, headers: Record<string, string>, patienceMs: number): Promise<SendOutcome | ReceiverBusy> {
    const target = new URL(url);
    const literal = this.options.allowPrivateNetworks ? undefined : forbiddenLiteralHost(target);
    if (literal) return { durationMs: 0, error: `refused: ${literal}`, reply: '', excerpt: '' };
    const turn: Turn = await this.slots.take(target.origin, patienceMs);
    if (!('release' in turn)) return turn;
    // The clock (and the logged duration) starts once the request may go: the receiver's time only.
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const res = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'Crowdbox-Webhooks/1', ...headers },
        body,
        signal: AbortSignal.timeout(this.options.totalTimeoutMs),
      });
      const bytes = await readCapped(res.body, REPLY_READ_LIMIT_BYTES);
      return {
        status: res.statusCode,
        durationMs: elapsed(),
        reply: bytes.toString('utf8'),
        excerpt: bytes.subarray(0, REPLY_EXCERPT_BYTES).toString('utf8'),
        retryAfterMs: retryAfterMs(res.headers['retry-after']),
      };
    } catch (error) {
      return { durationMs: elapsed(), error: describe(error), reply: '', excerpt: '' };
    } finally {
      turn.release();
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; name?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timeout: no complete reply in time';
  const code = e?.cause?.code ?? e?.code;
  const message = e?.cause?.message ?? e?.message ?? String(error);
  return code ? `${code}: ${message}` : message;
}
