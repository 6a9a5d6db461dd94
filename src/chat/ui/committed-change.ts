import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The DOM's own `change` event of a field: its value committed (the field left, Enter pressed,
 * a picker closed). Not `onChange`: preact/compat, which the app loads for `memo`, makes that
 * prop fire on every keystroke of text-like inputs, as React does. Returns the ref to put on the
 * field.
 */
export function useCommittedChange<T extends HTMLInputElement | HTMLTextAreaElement>(onCommit: (value: string) => void): RefObject<T> {
  const field = useRef<T>(null);
  const latest = useRef(onCommit);
  latest.current = onCommit;
  useEffect(() => {
    const element = field.current;
    if (!element) return;
    const listener = () => latest.current(element.value);
    element.addEventListener('change', listener);
    return () => element.removeEventListener('change', listener);
  }, [field.current]);
  return field;
}
