import type { Clock } from '../clock/clock.ts';

/** Upstream's rule shape: at most `maxCalls` within any `windowSeconds`. */
export interface RateRule {
  windowSeconds: number;
  maxCalls: number;
}

/**
 * A sliding-window limiter in memory, on the engine's clock: each key keeps the times of its
 * recent attempts. Keys are bounded too: past `maxKeys`, expired ones are swept, then the
 * oldest dropped, so a flood of distinct keys cannot grow it without end.
 */
export class RateLimiter {
  readonly #clock: Clock;
  readonly #rule: RateRule;
  readonly #maxKeys: number;
  readonly #attempts = new Map<string, number[]>();

  constructor(clock: Clock, rule: RateRule, maxKeys = 10_000) {
    this.#clock = clock;
    this.#rule = rule;
    this.#maxKeys = maxKeys;
  }

  /** Seconds until `key` may try again; 0 when it may now. */
  secondsToFreedom(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.#rule.maxCalls) return 0;
    const freedAt = recent[recent.length - this.#rule.maxCalls] + this.#rule.windowSeconds * 1000;
    return (freedAt - this.#clock.now()) / 1000;
  }

  record(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.#clock.now());
    this.#attempts.delete(key);
    this.#attempts.set(key, recent.slice(-this.#rule.maxCalls));
    if (this.#attempts.size > this.#maxKeys) this.#shrink();
  }

  clear(key: string): void {
    this.#attempts.delete(key);
  }

  #recent(key: string): number[] {
    const since = this.#clock.now() - this.#rule.windowSeconds * 1000;
    return (this.#attempts.get(key) ?? []).filter((at) => at > since);
  }

  #shrink(): void {
    for (const key of [...this.#attempts.keys()]) {
      if (this.#recent(key).length === 0) this.#attempts.delete(key);
    }
    // Map order is least recently recorded first.
    for (const key of this.#attempts.keys()) {
      if (this.#attempts.size <= this.#maxKeys) break;
      this.#attempts.delete(key);
    }
  }
}
