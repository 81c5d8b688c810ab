// jsonText writes the stored JSON columns of recorded trajectories (messages, task input, ART JSON):
// its text must be JSON.stringify's, byte for byte, for every value, or stored rows would differ from
// those earlier versions stored (and a retry would no longer be a no-op).
import { describe, expect, it } from 'vitest';

import { jsonString, jsonText } from '../src/domain/json-text';
import { prng } from '../src/domain/prng';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const tricky: unknown[] = [
  'plain text',
  '',
  'quote " and backslash \\ and slash /',
  'controls \u0000 \u0001 \b \f \n \r \t \u001f \u007f',
  'pair 😀 lone \ud800 and \udc00 reversed \udc00\ud800',
  'unicode é ü 中文 \u2028 \u2029',
  0,
  -0,
  1.5,
  -1e-7,
  1e21,
  123456789012345680000,
  Number.MAX_SAFE_INTEGER,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  null,
  [],
  {},
  [undefined, () => 1, Symbol('s'), null],
  { a: undefined, b: () => 1, c: Symbol('s'), d: null },
  { 2: 'two', 1: 'one', b: 'b', a: 'a', '-1': 'minus', '01': 'zero-one' },
  { ['__proto__']: 'own key' },
  JSON.parse('{"__proto__": {"x": 1}, "k\\u0000ey": "v", "\\"": "q"}'),
  Object.assign(Object.create(null), { z: 1, a: [1, 2] }),
  // eslint-disable-next-line no-sparse-arrays
  [1, , 3],
  new Date(0),
  { when: new Date(0), nested: [new Date(1)] },
  { toJSON: () => 'custom' },
  { inner: { toJSON: (key: string) => `key ${key}` } },
  [{ toJSON: (key: string) => `index ${key}` }],
  new Point(1, 2),
  { p: new Point(3, 4) },
  [new String('boxed'), new Number(3), new Boolean(false)],
  new Map([[1, 2]]),
  Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
  {
    get computed() {
      return 'got';
    },
  },
  Object.assign([1, 2], { extra: 'ignored' }),
  new Uint8Array([1, 2]),
  undefined,
  () => 1,
];

function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
  return v;
}

/** ART-like trajectories with random text: the values recordTrajectoryGroups stores. */
function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.3) {
    const chars = ['a', ' ', '"', '\\', '\n', '\u0000', 'é', '😀', '\ud800', '\u2028', '/', '<'];
    let s = '';
    const n = Math.floor(rand() * 12);
    for (let i = 0; i < n; i++) s += rand() < 0.7 ? 'word ' : chars[Math.floor(rand() * chars.length)];
    return s;
  }
  if (r < 0.4) return Math.round((rand() - 0.5) * 1e6) / (rand() < 0.5 ? 1 : 1e3);
  if (r < 0.45) return rand() < 0.5;
  if (r < 0.5) return null;
  if (r < 0.75) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 5); i > 0; i--) o[String(randomValue(rand, 9))] = randomValue(rand, depth + 1);
  return o;
}

describe('jsonText', () => {
  it('writes what JSON.stringify writes, for every kind of value', () => {
    for (const v of tricky) expect(jsonText(v)).toBe(JSON.stringify(v));
    for (const v of tricky.filter((x): x is string => typeof x === 'string'))
      expect(jsonString(v)).toBe(JSON.stringify(v));
  });

  it('writes deep values as JSON.stringify does, and throws what it throws', () => {
    for (const levels of [10, 255, 256, 257, 300, 2000])
      expect(jsonText(deep(levels))).toBe(JSON.stringify(deep(levels)));
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => jsonText(cycle)).toThrow(TypeError);
    expect(() => jsonText({ n: 1n })).toThrow(TypeError);
    const throwing = {
      get boom() {
        throw new Error('getter');
      },
    };
    expect(() => jsonText(throwing)).toThrow('getter');
  });

  it('matches JSON.stringify on random JSON data', () => {
    const rand = prng(24);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(rand, 0);
      expect(jsonText(v)).toBe(JSON.stringify(v));
      const parsed = JSON.parse(JSON.stringify(v)) as unknown;
      expect(jsonText(parsed)).toBe(JSON.stringify(parsed));
    }
  });
});
