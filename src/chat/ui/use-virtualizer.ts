import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

type Options = Omit<VirtualizerOptions<HTMLElement, HTMLElement>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/**
 * The scroller's size, as the core observes it, except that a list anchored at its end (a
 * chat's) that was scrolled to its end stays there when the scroller gets shorter: the compose
 * box growing beneath it (an upload's status line, an error, more text) must not hide the
 * newest message.
 */
const observeRectKeepingEnd: VirtualizerOptions<HTMLElement, HTMLElement>['observeElementRect'] = (instance, onRect) =>
  observeElementRect(instance, (rect) => {
    const element = instance.scrollElement;
    const before = instance.scrollRect?.height;
    const wasAtEnd = element !== null && before !== undefined && element.scrollHeight - element.scrollTop - before <= 1;
    onRect(rect);
    if (wasAtEnd && rect.height < before && instance.options.anchorTo === 'end' && instance.options.count > 0) {
      instance.scrollToIndex(instance.options.count - 1, { align: 'end' });
    }
  });

/** @tanstack/virtual-core bound to a Preact component: it redraws whenever the window moves. */
export function useVirtualizer(options: Options): Virtualizer<HTMLElement, HTMLElement> {
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, HTMLElement> = {
    observeElementRect: observeRectKeepingEnd,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      redraw(undefined);
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), []);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
