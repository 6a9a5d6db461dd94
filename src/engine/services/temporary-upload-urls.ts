import type { Clock } from '../clock/clock.ts';

/** Upstream's `SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS`. */
export const TEMPORARY_UPLOAD_URL_SECONDS = 60;

/**
 * Tokens of upstream's temporary file URLs (`/user_uploads/temporary/{token}/{name}`): each
 * opens one file, without credentials, for a minute. Upstream signs the path with a server
 * secret; here the engine remembers random tokens instead, so none outlives the engine (a
 * minute-long capability need not survive a restart).
 */
export class TemporaryUploadUrls {
  readonly #clock: Clock;
  readonly #tokens = new Map<string, { pathId: string; expiresAt: number }>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** A new token for `pathId`. */
  issue(pathId: string): string {
    this.#forgetExpired();
    const bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    const token = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
    this.#tokens.set(token, { pathId, expiresAt: this.#clock.now() + TEMPORARY_UPLOAD_URL_SECONDS * 1000 });
    return token;
  }

  /** The path a live token opens, or null. */
  resolve(token: string): string | null {
    this.#forgetExpired();
    return this.#tokens.get(token)?.pathId ?? null;
  }

  #forgetExpired(): void {
    const now = this.#clock.now();
    for (const [token, entry] of this.#tokens) if (entry.expiresAt <= now) this.#tokens.delete(token);
  }
}
