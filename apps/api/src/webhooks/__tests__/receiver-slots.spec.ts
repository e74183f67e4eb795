import { ReceiverSlots, type Turn } from '../receiver-slots';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const release = (turn: Turn) => {
  if (!('release' in turn)) throw new Error(`expected a turn, got busy for ${turn.busyForMs} ms`);
  turn.release();
};

describe('ReceiverSlots', () => {
  it('lets the first n requests to a receiver go and queues the rest in order of arrival', async () => {
    const slots = new ReceiverSlots(2);
    const order: string[] = [];
    const a = await slots.take('http://a');
    const b = await slots.take('http://a');
    const c = slots.take('http://a').then((turn) => (order.push('c'), turn));
    const d = slots.take('http://a').then((turn) => (order.push('d'), turn));
    await tick();
    expect(order).toEqual([]);
    release(a);
    await tick();
    expect(order).toEqual(['c']);
    release(b);
    await tick();
    expect(order).toEqual(['c', 'd']);
    release(await c);
    release(await d);
  });

  it('counts each receiver apart', async () => {
    const slots = new ReceiverSlots(1);
    await slots.take('http://a');
    let other = false;
    void slots.take('http://b').then(() => (other = true));
    await tick();
    expect(other).toBe(true);
  });

  it('gives a slot back once, however often its release is called', async () => {
    const slots = new ReceiverSlots(1);
    const first = await slots.take('http://a');
    let second = false;
    let third = false;
    void slots.take('http://a').then(() => (second = true));
    void slots.take('http://a').then(() => (third = true));
    release(first);
    release(first);
    await tick();
    expect([second, third]).toEqual([true, false]);
  });

  it('answers busy after waiting its patience, and leaves the queue to those behind it', async () => {
    let now = 0;
    const slots = new ReceiverSlots(1, () => now);
    const first = await slots.take('http://a');
    now = 10;
    const impatient = slots.take('http://a', 20);
    const patient = slots.take('http://a');
    now = 25;
    expect(await impatient).toEqual({ busyForMs: 25 });
    release(first);
    expect('release' in (await patient)).toBe(true);
  });

  it('answers busy at once while the oldest request in flight is older than the patience', async () => {
    let now = 0;
    const slots = new ReceiverSlots(1, () => now);
    const first = await slots.take('http://a');
    now = 500;
    expect(await slots.take('http://a', 100)).toEqual({ busyForMs: 500 });
    release(first);
    expect('release' in (await slots.take('http://a', 100))).toBe(true);
  });
});
