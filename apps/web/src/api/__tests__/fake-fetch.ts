export interface FetchCall {
  url: string;
  init: RequestInit;
}

/** A JSON answer, or a request that is still waiting for one (until it is aborted). */
type Reply = [status: number, body: unknown] | 'no answer yet';

/**
 * Replaces fetch with one that answers each call with the next of `replies` (the last one again once
 * they run out); every call is recorded. The caller puts the real fetch back.
 */
export function answerInTurn(...replies: Reply[]): FetchCall[] {
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const reply = replies[Math.min(calls.length, replies.length - 1)];
    calls.push({ url, init });
    if (reply === 'no answer yet') {
      return new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    }
    const [status, body] = reply;
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      headers: { get: () => null },
      text: async () => JSON.stringify(body),
    } as unknown as Response;
  }) as typeof fetch;
  return calls;
}

/** fetch answering `status` with `body` as JSON; every call is recorded. */
export function answer(status: number, body: unknown): FetchCall[] {
  return answerInTurn([status, body]);
}
