import { useLayoutEffect, useRef } from 'preact/hooks';
import { useCommittedChange } from '../committed-change.ts';

/** Some of upstream's channel colors, offered as swatches; any other through the browser's picker. */
const SWATCHES = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#53a063', '#e4523d', '#4f8de4'];

/** Upstream's Change color: a palette in place of the channel menu's list, the current color checked. */
export function ColorChoices({ current, onChoose }: { current: string; onChoose(color: string): void }) {
  const group = useRef<HTMLDivElement>(null);
  // The Change color item that held the focus is gone: the focus goes on among the swatches.
  useLayoutEffect(() => {
    const swatches = group.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]');
    ([...(swatches ?? [])].find((swatch) => swatch.getAttribute('aria-checked') === 'true') ?? swatches?.[0])?.focus();
  }, []);
  // Sent once the picker closes, not for every colour passed while dragging.
  const picked = useCommittedChange<HTMLInputElement>(onChoose);
  const same = (color: string) => color.toLowerCase() === current.toLowerCase();
  return (
    <>
      <div ref={group} role="group" class="color-choices" aria-label="Channel color">
        {SWATCHES.map((color) => (
          <button key={color} type="button" role="menuitemradio" aria-checked={same(color)} aria-label={color} title={color} style={{ background: color }} onClick={() => onChoose(color)} />
        ))}
      </div>
      {/* A press on the picker opens the browser's, and keeps this menu open. */}
      <label class="color-custom" onClick={(event) => event.stopPropagation()}>
        Custom color
        <input ref={picked} type="color" value={current} />
      </label>
    </>
  );
}
