import { hmac } from '@noble/hashes/hmac.js';
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CryptoFunctions } from './crypto-functions.ts';

/**
 * Outside a secure context, where only `crypto.getRandomValues` exists: the hashes from
 * `@noble/hashes` (audited, dependency-free), the UUID from the platform's random bytes.
 * `pbkdf2Async` yields to the event loop while it works, so a login hashing its password does
 * not stall the other requests of the engine.
 */
export function nobleCryptoFunctions(getRandomValues: <T extends Uint8Array>(array: T) => T): CryptoFunctions {
  return {
    randomUuid: () => uuidV4(getRandomValues(new Uint8Array(16))),
    sha256: (data) => Promise.resolve(sha256(data)),
    hmacSha256: (key, data) => Promise.resolve(hmac(sha256, key, data)),
    pbkdf2Sha256: (password, salt, iterations, length) => pbkdf2Async(sha256, password, salt, { c: iterations, dkLen: length }),
  };
}

/** RFC 9562's version 4 layout over 16 random bytes. */
function uuidV4(bytes: Uint8Array): string {
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
