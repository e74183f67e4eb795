import { ReceiverSlots } from '../receiver-slots';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ReceiverSlots', () => {
  it('lets the first n requests to a receiver go and queues the rest in order of arrival', async () => {
    const slots = new ReceiverSlots(2);
    const order: string[] = [];
    const a = await slots.acquire('http://a');
    const b = await slots.acquire('http://a');
    const c = slots.acquire('http://a').then((release) => (order.push('c'), release));
    const d = slots.acquire('http://a').then((release) => (order.push('d'), release));
    await tick();
    expect(order).toEqual([]);
    a();
    await tick();
    expect(order).toEqual(['c']);
    b();
    await tick();
    expect(order).toEqual(['c', 'd']);
    (await c)();
    (await d)();
  });

  it('counts each receiver apart', async () => {
    const slots = new ReceiverSlots(1);
    await slots.acquire('http://a');
    let other = false;
    void slots.acquire('http://b').then(() => (other = true));
    await tick();
    expect(other).toBe(true);
  });

  it('gives a slot back once, however often its release is called', async () => {
    const slots = new ReceiverSlots(1);
    const first = await slots.acquire('http://a');
    let second = false;
    let third = false;
    void slots.acquire('http://a').then(() => (second = true));
    void slots.acquire('http://a').then(() => (third = true));
    first();
    first();
    await tick();
    expect([second, third]).toEqual([true, false]);
  });
});
