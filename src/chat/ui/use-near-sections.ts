import { useSignal, type Signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * The names of the sections (`[data-section]` children of the scroller) that have come near its
 * view: a section draws its emoji only then, so the picker opens without drawing two thousand
 * buttons. Once near, a section stays drawn; `reveal` draws one at once (a jump to it).
 */
export function useNearSections(scroller: RefObject<HTMLElement | null>, initial: string[], deps: unknown[]): { near: Signal<Set<string>>; reveal(name: string): void } {
  const near = useSignal(new Set(initial));
  const reveal = (name: string): void => {
    if (!near.value.has(name)) near.value = new Set([...near.value, name]);
  };
  useEffect(() => {
    const root = scroller.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const name = (entry.target as HTMLElement).dataset.section;
          if (entry.isIntersecting && name !== undefined) reveal(name);
        }
      },
      { root, rootMargin: '300px 0px' },
    );
    for (const section of root.querySelectorAll('[data-section]')) observer.observe(section);
    return () => observer.disconnect();
  }, deps);
  return { near, reveal };
}
