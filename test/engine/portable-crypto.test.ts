import { describe, expect, test } from 'vitest';
import { nobleCryptoFunctions } from '../../src/engine/crypto/noble-crypto.ts';
import { chooseCryptoFunctions } from '../../src/engine/crypto/portable-crypto.ts';
import { webCryptoFunctions } from '../../src/engine/crypto/web-crypto.ts';

/** What a plain-http page gives its scripts: random bytes, no `subtle`, no `randomUUID`. */
const insecureCrypto = { getRandomValues: <T extends ArrayBufferView>(array: T) => crypto.getRandomValues(array) } as unknown as Crypto;

const web = webCryptoFunctions(crypto);
const noble = nobleCryptoFunctions((array) => crypto.getRandomValues(array));
const bytes = (text: string) => new TextEncoder().encode(text);
const random = (length: number) => crypto.getRandomValues(new Uint8Array(length));
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the crypto functions without a secure context', () => {
  test('are the JavaScript ones where crypto.subtle and crypto.randomUUID are missing, and Web Crypto where they exist', async () => {
    const chosen = chooseCryptoFunctions(insecureCrypto);
    expect(chosen.randomUuid()).toMatch(UUID_V4);
    // The JavaScript PBKDF2 is the one that works without `subtle`.
    expect(await chosen.pbkdf2Sha256(bytes('pw'), bytes('salt'), 1, 32)).toEqual(await noble.pbkdf2Sha256(bytes('pw'), bytes('salt'), 1, 32));
    const secure = chooseCryptoFunctions(crypto);
    expect(await secure.sha256(bytes('abc'))).toEqual(await web.sha256(bytes('abc')));
  });

  test('derive the same PBKDF2-SHA256 keys as Web Crypto, at the iteration count passwords are stored with too', async () => {
    const cases: [string, Uint8Array, number, number][] = [
      ['', random(16), 1, 32],
      ['password', bytes('salt'), 2, 32],
      ['mark-pass', random(16), 1000, 32],
      ['pässwörd ✓ 密码', random(16), 100_000, 32],
      ['x'.repeat(100), random(16), 10, 64],
    ];
    for (const [password, salt, iterations, length] of cases) {
      const expected = await web.pbkdf2Sha256(bytes(password), salt, iterations, length);
      expect(await noble.pbkdf2Sha256(bytes(password), salt, iterations, length)).toEqual(expected);
    }
  });

  test('give the same SHA-256 digests and HMAC-SHA256 signatures as Web Crypto', async () => {
    for (const data of [new Uint8Array(), bytes('abc'), random(63), random(64), random(65_536)]) {
      expect(await noble.sha256(data)).toEqual(await web.sha256(data));
      const key = random(64);
      expect(await noble.hmacSha256(key, data)).toEqual(await web.hmacSha256(key, data));
    }
    // FIPS 180-2's example, so neither side can be wrong in the same way.
    expect(Buffer.from(await noble.sha256(bytes('abc'))).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('make version 4 UUIDs of the same form as crypto.randomUUID, a new one each time', () => {
    const made = Array.from({ length: 200 }, () => noble.randomUuid());
    for (const uuid of [...made, web.randomUuid()]) expect(uuid).toMatch(UUID_V4);
    expect(new Set(made).size).toBe(made.length);
  });
});
