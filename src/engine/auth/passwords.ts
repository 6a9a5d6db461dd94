import { pbkdf2Sha256 } from '../crypto/portable-crypto.ts';

/**
 * Passwords are kept only as salted PBKDF2-SHA256 hashes (crypto/portable-crypto.ts: Web Crypto
 * where the context has it, so the same code runs in Node, in a worker, and on a plain-http
 * page). The iteration count is stored with each hash, so it can change later.
 */
const DEFAULT_ITERATIONS = 100_000;

/** The realm's `password_min_length` / `password_max_length` (register). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 100;

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const derive = (password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> =>
  pbkdf2Sha256(new TextEncoder().encode(password), salt, iterations, 32);

export async function hashPassword(password: string, iterations = DEFAULT_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/**
 * A stored hash no password matches, at the cost of a real one: checking a password against it
 * for an unknown account takes as long as for a real account, so the time does not tell.
 */
export function unmatchableHash(iterations = DEFAULT_ITERATIONS): string {
  return `pbkdf2-sha256$${iterations}$${toBase64(new Uint8Array(16))}$${toBase64(new Uint8Array(32))}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, expected] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !expected) return false;
  const actual = await derive(password, fromBase64(salt), Number(iterations));
  const wanted = fromBase64(expected);
  if (actual.length !== wanted.length) return false;
  // Constant-time comparison: the loop never exits early.
  let difference = 0;
  for (let i = 0; i < actual.length; i++) difference |= actual[i] ^ wanted[i];
  return difference === 0;
}

const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 32-character alphanumeric key, the format upstream issues and checks. */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => API_KEY_ALPHABET[b % API_KEY_ALPHABET.length]).join('');
}

export const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;
