import type { Clock } from '../clock/clock.ts';
import { ApiError } from '../errors/api-error.ts';
import { RateLimiter } from './rate-limiter.ts';

/** Upstream's `authenticate_by_username`: 5 failed login attempts within 30 minutes. */
const BY_USERNAME = { windowSeconds: 1800, maxCalls: 5 };
/** Upstream's `api_by_ip` for unauthenticated requests: 100 a minute from one address. */
const BY_ADDRESS = { windowSeconds: 60, maxCalls: 100 };
/** The longest email address there can be (RFC 5321): a longer username names no account. */
const MAX_USERNAME_KEY_LENGTH = 254;

export const rateLimited = (secondsToFreedom: number): ApiError =>
  new ApiError('API usage exceeded rate limit', {
    code: 'RATE_LIMIT_HIT',
    status: 429,
    extra: { 'retry-after': secondsToFreedom },
    headers: { 'Retry-After': String(secondsToFreedom) },
  });

/**
 * Password login attempts, per username and per client address, as upstream limits them:
 * every attempt counts, a successful one clears its username's count. Unknown usernames are
 * counted like real ones, so the limit does not tell which accounts exist.
 */
export class LoginLimits {
  readonly #byUsername: RateLimiter;
  readonly #byAddress: RateLimiter;

  constructor(clock: Clock) {
    this.#byUsername = new RateLimiter(clock, BY_USERNAME);
    this.#byAddress = new RateLimiter(clock, BY_ADDRESS);
  }

  /** Throws RATE_LIMIT_HIT when either limit is reached; otherwise counts the attempt. */
  admit(username: string, clientAddress: string | null): void {
    const wait = this.secondsToWait(username, clientAddress);
    if (wait > 0) throw rateLimited(wait);
    this.#byUsername.record(usernameKey(username));
    if (clientAddress) this.#byAddress.record(clientAddress);
  }

  /** How long `username` (and `clientAddress`, if any) must wait before another attempt; 0: none. */
  secondsToWait(username: string, clientAddress: string | null): number {
    const byAddress = clientAddress ? this.#byAddress.secondsToFreedom(clientAddress) : 0;
    return Math.max(this.#byUsername.secondsToFreedom(usernameKey(username)), byAddress);
  }

  succeeded(username: string): void {
    this.#byUsername.clear(usernameKey(username));
  }
}

const usernameKey = (username: string): string => username.trim().toLowerCase().slice(0, MAX_USERNAME_KEY_LENGTH);
