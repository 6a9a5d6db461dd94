import type { CryptoFunctions } from './crypto-functions.ts';
import { nobleCryptoFunctions } from './noble-crypto.ts';
import { webCryptoFunctions } from './web-crypto.ts';

/**
 * Web Crypto where the context has it, else the JavaScript implementation: a page (and its
 * workers) served over plain http from a LAN address is no secure context, and browsers give it
 * `crypto.getRandomValues` only. Both give the same results (test/engine/portable-crypto.test.ts).
 */
export function chooseCryptoFunctions(crypto: Crypto): CryptoFunctions {
  const secure = typeof crypto.subtle === 'object' && crypto.subtle !== null && typeof crypto.randomUUID === 'function';
  return secure ? webCryptoFunctions(crypto) : nobleCryptoFunctions((array) => crypto.getRandomValues(array));
}

const chosen = chooseCryptoFunctions(globalThis.crypto);

export const { randomUuid, sha256, hmacSha256, pbkdf2Sha256 } = chosen;
