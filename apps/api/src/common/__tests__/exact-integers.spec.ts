import { keepExactIntegers } from '../http/exact-integers';

const read = (text: string, paths: string[][]) => keepExactIntegers(JSON.parse(text), text, paths);

describe('keepExactIntegers', () => {
  it('keeps the digits of integers past 2^53 at the places named, through arrays and objects', () => {
    const text = '{"tasks":[{"s":{"a":12345678901234567890,"b":1.5,"c":"x"}},{"s":{"a":-9007199254740993}}],"other":12345678901234567890}';
    expect(read(text, [['tasks', '*', 's', '*']])).toEqual({
      tasks: [{ s: { a: '12345678901234567890', b: 1.5, c: 'x' } }, { s: { a: '-9007199254740993' } }],
      other: 12345678901234567000,
    });
  });

  it('leaves a number written with an exponent, and safe integers, as JSON.parse reads them', () => {
    expect(read('{"s":{"a":1e21,"b":9007199254740991}}', [['s', '*']])).toEqual({ s: { a: 1e21, b: 9007199254740991 } });
  });

  it('never follows a key named __proto__ (the second parser sets a prototype with it)', () => {
    const body = read('{"s":{"__proto__":12345678901234567890}}', [['s', '*']]) as { s: Record<string, unknown> };
    expect(Object.getPrototypeOf(body.s)).toBe(Object.prototype);
    expect(Object.hasOwn(body.s, '__proto__')).toBe(true);
    expect(body.s['__proto__']).toBe(12345678901234567000);
  });
});
