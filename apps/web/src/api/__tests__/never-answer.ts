/** Replaces fetch with one that never answers (a connection that died quietly) until the request is aborted. */
export function neverAnswer(): void {
  globalThis.fetch = ((_url: string, init: RequestInit) =>
    new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
}
