/**
 * The few cryptographic functions the engine and the browser host use, behind one interface so
 * that a page on a plain-http origin (no secure context: no `crypto.subtle`, no
 * `crypto.randomUUID`) gets the same results from a JavaScript implementation.
 */
export interface CryptoFunctions {
  /** A version 4 UUID, lowercase, as `crypto.randomUUID` gives. */
  randomUuid(): string;
  sha256(data: Uint8Array): Promise<Uint8Array>;
  hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
  /** PBKDF2 with HMAC-SHA256, `length` bytes. */
  pbkdf2Sha256(password: Uint8Array, salt: Uint8Array, iterations: number, length: number): Promise<Uint8Array>;
}
