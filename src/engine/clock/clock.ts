/**
 * The one source of time for the engine: timestamps, heartbeats and queue expiry all read it,
 * so tests can drive ten minutes of expiry without waiting ten minutes.
 */
export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending heartbeat must not keep a Node process alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface ManualTimer {
  at: number;
  seq: number;
  callback: () => void;
}

/** A clock that moves only when told to; timers fire in order as time is advanced. */
export class ManualClock implements Clock {
  #now: number;
  #timers = new Map<number, ManualTimer>();
  #seq = 0;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const seq = ++this.#seq;
    this.#timers.set(seq, { at: this.#now + Math.max(0, ms), seq, callback });
    return seq;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Moves time forward, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.#timers.values()) {
        if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq))) {
          next = timer;
        }
      }
      if (!next) break;
      this.#timers.delete(next.seq);
      this.#now = next.at;
      next.callback();
    }
    this.#now = target;
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }
}
