import { useSignal, type Signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/** A drawn emoji grid's columns and row pitch (a button's height and the gap under it). */
export interface GridMetrics {
  columns: number;
  rowPitch: number;
  gap: number;
}

/**
 * The metrics of the first drawn grid in the scroller, measured again when its width changes:
 * a section not yet drawn keeps the height its emoji will take, so a jump lands where it aims
 * and nothing moves when the sections before it are drawn.
 */
export function useGridMetrics(scroller: RefObject<HTMLElement | null>): Signal<GridMetrics | undefined> {
  const metrics = useSignal<GridMetrics | undefined>(undefined);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = (): void => {
      const grid = element.querySelector<HTMLElement>('.emoji-grid');
      const button = grid?.querySelector<HTMLElement>('.emoji-choice');
      if (!grid || !button) return;
      const style = getComputedStyle(grid);
      const gap = parseFloat(style.rowGap) || 0;
      metrics.value = { columns: style.gridTemplateColumns.split(' ').length, rowPitch: button.getBoundingClientRect().height + gap, gap };
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return metrics;
}
