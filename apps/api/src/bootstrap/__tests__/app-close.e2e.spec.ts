import { createHook } from 'node:async_hooks';
import { eventually } from '../../../test/eventually';
import { aRequester, completeTaskWithCallback, signUp } from '../../../test/factories';
import { startTestApp } from '../../../test/test-app';
import { WebhookReceiver } from '../../../test/webhook-receiver';

/** Timers and handles that keep a process alive: a Timeout counts while it is ref'd and pending. */
const KINDS = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP', 'PIPEWRAP', 'PIPESERVERWRAP', 'PROCESSWRAP', 'UDPWRAP']);

/**
 * Records the timers and handles created from now on, with the stack that created each, so that after
 * app.close() those still holding the event loop can be named. (process.getActiveResourcesInfo() only
 * counts them, and Jest's own timers come and go in those counts.)
 */
function trackHandles() {
  const created = new Map<number, { kind: string; stack: string; resource: WeakRef<object> }>();
  const hook = createHook({
    init(id, kind, _trigger, resource) {
      if (KINDS.has(kind)) created.set(id, { kind, stack: new Error().stack ?? '', resource: new WeakRef(resource) });
    },
    destroy(id) {
      created.delete(id);
    },
  });
  hook.enable();
  return {
    stop: () => hook.disable(),
    /** The kind and creating stack of each one still holding the event loop. */
    holding: (): string[] =>
      [...created.values()]
        .filter(({ kind, resource }) => {
          const handle = resource.deref() as { hasRef?: () => boolean; _destroyed?: boolean } | undefined;
          if (!handle) return false;
          if (kind === 'Timeout' && handle._destroyed) return false;
          return handle.hasRef?.() ?? true;
        })
        .map(({ kind, stack }) => `${kind} ${stack.split('\n').slice(2).filter((line) => !line.includes('node:internal')).slice(0, 6).join(' | ')}`),
  };
}

/**
 * app.close() ends everything the server opened: the pg pool, the shared Redis client, BullMQ's queues
 * and workers, the webhook sender's keep-alive connections, and every timer (the expiry scheduler, the
 * sweeper, the outbox relay, the housekeeping passes). One left open keeps a process alive after its
 * shutdown, and a Jest worker past the end of the run ("A worker process has failed to exit gracefully").
 */
describe('app.close()', () => {
  it('leaves nothing that keeps the event loop alive, after a server that ran jobs and delivered a webhook', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const handles = trackHandles();
      const t = await startTestApp({ WEBHOOK_RELAY_INTERVAL_MS: '100', CHECKOUT_EXPIRY_JOB_GRACE_MS: '100' }, { role: 'all' });
      try {
        const r = await aRequester(t);
        const worker = await signUp(t);
        await completeTaskWithCallback(t, r, worker, receiver.url('/closing'));
        // The sender holds a keep-alive connection to the receiver from here on.
        expect(await eventually(() => receiver.events('/closing').length === 1)).toBe(true);
      } finally {
        await t.close();
      }
      // A socket's handle is destroyed a turn or two after its close resolved; nothing of ours should linger.
      const holding = await eventually(() => {
        const left = handles.holding();
        return left.length === 0 ? left : undefined;
      }, 1_000);
      handles.stop();
      expect(holding ?? handles.holding()).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});
