/**
 * Runs one round's sides once each, in an order shuffled afresh for every round (from a fixed
 * seed, so runs repeat). The order a side runs in moves its time: in Chromium the topic page's
 * `handle()` took 0.3–0.9 ms longer run first in a round than run right after the same work,
 * and a fixed or rotated order keeps the same side after the same neighbour. Shuffled, every
 * side runs first, last and after every other side about equally often. Results come back in
 * the sides' own order.
 */
export function shuffledRounds(seed = 0x5eed): <T extends readonly (() => Promise<unknown>)[]>(sides: T) => Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  let state = seed >>> 0;
  // mulberry32: a small seeded generator; the order only needs to be even, not secret.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return async (sides) => {
    const order = sides.map((_, index) => index);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const results: unknown[] = new Array(sides.length);
    for (const index of order) results[index] = await sides[index]!();
    return results as never;
  };
}
