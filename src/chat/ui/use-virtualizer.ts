import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

type Options = Omit<VirtualizerOptions<HTMLElement, HTMLElement>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/** @tanstack/virtual-core bound to a Preact component: it redraws whenever the window moves. */
export function useVirtualizer(options: Options): Virtualizer<HTMLElement, HTMLElement> {
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, HTMLElement> = {
    observeElementRect,
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
