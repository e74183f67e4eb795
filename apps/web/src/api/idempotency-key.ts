/**
 * A new `Idempotency-Key`: 128 random bits in hex. From crypto.getRandomValues, which, unlike
 * crypto.randomUUID, browsers also offer on a page served over plain http.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per request body: the same body sent again (a retry after an answer that never came) goes with
 * the same key, so the server makes it once and replays its answer; a changed body is a new request.
 */
export class KeyPerBody {
  private last: { body: string; key: string } | undefined;

  keyFor(body: unknown): string {
    const text = JSON.stringify(body);
    if (this.last?.body !== text) this.last = { body: text, key: newIdempotencyKey() };
    return this.last.key;
  }
}
