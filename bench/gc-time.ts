// Garbage-collection pauses, attributed to the timed operations they fell into.
import { PerformanceObserver } from 'node:perf_hooks';

export type Interval = [start: number, end: number];

export class GcRecorder {
  readonly #pauses: Interval[] = [];
  readonly #observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) this.#pauses.push([entry.startTime, entry.startTime + entry.duration]);
  });

  constructor() {
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  /** Milliseconds of GC pause that started inside any of `intervals` (call after a tick: entries arrive late). */
  pauseWithin(intervals: readonly Interval[]): number {
    let total = 0;
    for (const [start, end] of this.#pauses) {
      if (intervals.some(([from, to]) => start >= from && start < to)) total += end - start;
    }
    return total;
  }

  stop(): void {
    this.#observer.disconnect();
  }
}
