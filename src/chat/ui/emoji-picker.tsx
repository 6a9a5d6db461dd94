import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ServerEmoji } from '../state/server-emoji.ts';
import { useChat } from './chat-context.ts';
import { EmojiGrid } from './emoji-grid.tsx';
import { emojiSections, type EmojiSection, type PickedEmoji, type PickerEmoji } from './emoji-sections.ts';
import { useGridMetrics } from './use-grid-metrics.ts';
import { useNearSections } from './use-near-sections.ts';

/** More search results would make a slow grid; typing more narrows them. */
const SHOWN = 160;
/** A section's height before the first grid is measured: about the picker's columns and rows. */
const ESTIMATE = { columns: 9, rowPitch: 41, gap: 3 };

/**
 * Picks an emoji from the server's emoji data (fetched when the picker first opens), as
 * upstream's picker: Popular, then the Unicode categories, then the realm's custom emoji, each
 * under its heading, with a row of buttons that jump to each. Typing filters every emoji by any
 * of its names into one list; Enter takes the first match. A name that matches nothing is
 * offered as typed only while the server's names are not here to say it does not exist.
 */
export function EmojiPicker({ onPick }: { onPick(emoji: PickedEmoji): void }) {
  const { session } = useChat();
  const query = useSignal('');
  const all = useSignal<ServerEmoji[]>([]);
  const current = useSignal('Popular');
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void session.emoji.load().then((emoji) => (all.value = emoji));
  }, []);

  const wanted = query.value.trim().toLowerCase().replace(/^:|:$/g, '');
  const custom: PickerEmoji[] = session.realm
    .activeRealmEmoji()
    .map((emoji) => ({ key: `realm:${emoji.id}`, name: emoji.name, names: [emoji.name], code: emoji.id, type: 'realm_emoji', image: session.api.resolve(emoji.source_url) }));
  const sections = emojiSections(custom, all.value);
  const metrics = useGridMetrics(scroller).value ?? ESTIMATE;
  const { near, reveal } = useNearSections(scroller, ['Popular', 'Smileys & Emotion'], [sections.length, wanted === '']);

  // Searched: custom emoji first, then the popular ones, then the rest; each emoji once.
  const searchOrder = [...sections.filter((section) => section.name === 'Custom'), ...sections.filter((section) => section.name !== 'Custom')];
  const unique = new Map(searchOrder.flatMap((section) => section.emoji).map((emoji) => [emoji.key, emoji]));
  const choices = wanted ? [...unique.values()].filter((emoji) => emoji.names.some((name) => name.includes(wanted))) : [];
  const exact = choices.find((emoji) => emoji.names.includes(wanted));
  // Without the server's emoji names (not loaded), a typed name may still be one the server knows.
  const byNameOnly = all.value.length === 0;

  function jump(section: EmojiSection): void {
    reveal(section.name);
    // Drawn now, so its first emoji can take the focus: the keyboard goes on from there.
    requestAnimationFrame(() => {
      const element = scroller.current?.querySelector<HTMLElement>(`[data-section="${CSS.escape(section.name)}"]`);
      if (!element || !scroller.current) return;
      // The list alone scrolls (scrollIntoView would move the dialog's body too).
      scroller.current.scrollTop = element.offsetTop;
      element.querySelector<HTMLElement>('.emoji-choice')?.focus({ preventScroll: true });
    });
  }

  /**
   * The section at the top of the view, whose button shows as the current one; at the end of
   * the list, the last (a short last section never reaches the top).
   */
  function follow(): void {
    const element = scroller.current;
    if (!element) return;
    const drawn = [...element.querySelectorAll<HTMLElement>('[data-section]')];
    const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
    const passed = atEnd ? drawn : drawn.filter((section) => section.offsetTop <= element.scrollTop + 4);
    current.value = passed.at(-1)?.dataset.section ?? sections[0]?.name ?? '';
  }

  return (
    <div class="emoji-picker">
      <input
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji by name"
        autofocus
        value={query.value}
        onInput={(event) => (query.value = event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !wanted) return;
          event.preventDefault();
          const picked = exact ?? choices[0] ?? (byNameOnly ? { name: wanted } : undefined);
          if (picked) onPick(picked);
        }}
      />
      {!wanted && (
        <div class="emoji-tabs" role="group" aria-label="Emoji categories">
          {sections.map((section) => (
            <button key={section.name} type="button" aria-label={section.name} title={section.name} aria-current={current.value === section.name ? 'true' : undefined} onClick={() => jump(section)}>
              {section.icon}
            </button>
          ))}
        </div>
      )}
      <div class="emoji-scroller" ref={scroller} onScroll={wanted ? undefined : follow}>
        {wanted ? (
          <>
            <EmojiGrid emoji={choices.slice(0, SHOWN)} label="Emoji" onPick={onPick} />
            {choices.length > SHOWN && <p class="hint">{choices.length - SHOWN} more: type to narrow the list.</p>}
            {choices.length === 0 &&
              (byNameOnly ? (
                <button type="button" class="emoji-by-name" onClick={() => onPick({ name: wanted })}>
                  Use :{wanted}:
                </button>
              ) : (
                <p class="hint" role="status">
                  No emoji is named “{wanted}”.
                </p>
              ))}
          </>
        ) : (
          sections.map((section) => (
            <section key={section.name} data-section={section.name}>
              <h3 class="emoji-heading">{section.name}</h3>
              {near.value.has(section.name) ? (
                <EmojiGrid emoji={section.emoji} label={section.name} onPick={onPick} />
              ) : (
                <div class="emoji-grid" style={{ height: `${Math.ceil(section.emoji.length / metrics.columns) * metrics.rowPitch - metrics.gap}px` }} />
              )}
            </section>
          ))
        )}
      </div>
    </div>
  );
}
