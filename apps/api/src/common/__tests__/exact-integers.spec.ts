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

  it('leaves numbers with an exponent or a fraction, numbers elsewhere, and digits inside strings and keys as JSON.parse reads them', () => {
    const text = '{"s":{"x":12345678901234567891,"a":1e21,"c":1.12345678901234567890,"d":"12345678901234567890","e":[12345678901234567890]},"k":{"12345678901234567890":12345678901234567890}}';
    const parsed = JSON.parse(text);
    expect(read(text, [['s', '*']])).toEqual({ ...parsed, s: { ...parsed.s, x: '12345678901234567891' } });
    // At a kept place any integer of 16 digits or more is its digits: for a safe one, what String() makes of it.
    expect(read('{"s":{"a":1e21,"b":9007199254740991}}', [['s', '*']])).toEqual({ s: { a: 1e21, b: '9007199254740991' } });
  });

  it('reads a body with no integer past 2^53 at the places named once only', () => {
    const body = JSON.parse('{"s":{"a":9007199254740991},"t":12345678901234567890}');
    expect(keepExactIntegers(body, 'not read again', [['s', '*']])).toBe(body);
  });

  it('turns back nothing a client wrote itself, whatever it holds', () => {
    const text = '{"s":{"a":12345678901234567890,"b":"\\u0000abc:12345678901234567890"}}';
    expect(read(text, [['s', '*']])).toEqual({ s: { a: '12345678901234567890', b: '\u0000abc:12345678901234567890' } });
  });

  it('keeps a key named __proto__ as an own property, as JSON.parse does', () => {
    const body = read('{"s":{"__proto__":12345678901234567890,"a":12345678901234567890}}', [['s', '*']]) as { s: Record<string, unknown> };
    expect(Object.getPrototypeOf(body.s)).toBe(Object.prototype);
    expect(Object.hasOwn(body.s, '__proto__')).toBe(true);
    expect(body.s['__proto__']).toBe('12345678901234567890');
  });
});
