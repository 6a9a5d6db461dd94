import fc from 'fast-check';

/**
 * What an attacker or a careless client puts into a parameter, as fast-check arbitraries. The
 * large values are built once: the fuzzer sends each many times, and building them per request
 * would measure the test rather than the engine.
 */

const deepList = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Lengths around the API's limits (topic and channel names 60, full names 100, content 10,000, lists 1000). */
const BOUNDARY_LENGTHS = [0, 1, 59, 60, 61, 99, 100, 101, 1000, 1001, 10_000, 10_001] as const;

/** Strings that broke or could break a server: sizes, encodings, markup, paths, numbers in disguise. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  `${' '.repeat(160_000)}x`,
  `${'\n \t'.repeat(50_000)}x`,
  'a'.repeat(200_000),
  'é'.repeat(30_000),
  '😀'.repeat(20_000),
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFFa\uD800',
  '\u202Egnp.exe',
  'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301',
  '\r\n\r\nX-Injected: 1',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '"><svg onload=alert(1)>',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{{constructor.constructor("return process")()}}',
  '${7*7}',
  "' OR 1=1 --",
  'null',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '-0',
  '0x10',
  '1e309',
  '1.5',
  '9007199254740993',
  '-9007199254740993',
  '99999999999999999999999999',
  '[]',
  '{}',
  '[null]',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[{"__proto__":{"polluted":true}}]',
  deepList(5_000),
  deepObject(5_000),
  `[${'1,'.repeat(100_000)}1]`,
  `[${'"x",'.repeat(20_000)}"x"]`,
  `[${'{"operator":"search","operand":"a"},'.repeat(2_000)}{}]`,
  '[',
  '{"a":',
  '"unterminated',
];

/** Strings of the lengths around the limits, in ASCII, in two-byte letters and in astral emoji. */
export const boundaryString = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom(...BOUNDARY_LENGTHS), fc.constantFrom('x', 'é', '😀', ' ')).map(([length, unit]) => unit.repeat(length));

/** Any hostile string: the fixed list, the lengths at the limits, or random unicode (lone surrogates included). */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: boundaryString() },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  );

/** Numbers a parameter should refuse or clamp: negative, huge, unsafe, fractional. */
export const hostileNumber = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(-1, 0, -0, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e300, 0.5),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );

/** JSON values of the wrong type or shape for whatever was expected, prototype keys included. */
export const hostileJsonValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(null, true, false, '', 'x', [], {}, [null], [[]], { __proto__: null, polluted: true }),
    fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
    hostileNumber(),
    fc.array(hostileNumber(), { maxLength: 5 }),
    fc.jsonValue({ maxDepth: 4 }),
  );
