import type { CryptoFunctions } from './crypto-functions.ts';

/** The platform's Web Crypto, where the context is secure (and always in Node). */
export function webCryptoFunctions(crypto: Crypto): CryptoFunctions {
  const { subtle } = crypto;
  return {
    randomUuid: () => crypto.randomUUID(),
    sha256: async (data) => new Uint8Array(await subtle.digest('SHA-256', data as BufferSource)),
    hmacSha256: async (key, data) => {
      const hmacKey = await subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      return new Uint8Array(await subtle.sign('HMAC', hmacKey, data as BufferSource));
    },
    pbkdf2Sha256: async (password, salt, iterations, length) => {
      const key = await subtle.importKey('raw', password as BufferSource, 'PBKDF2', false, ['deriveBits']);
      const bits = await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, key, length * 8);
      return new Uint8Array(bits);
    },
  };
}
