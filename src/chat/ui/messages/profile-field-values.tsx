import type { ShownValue } from '../../state/profile-fields.ts';
import { useChat } from '../chat-context.ts';
import { messageHtml } from '../message-html.ts';

/** A date field's `YYYY-MM-DD` is a day, not an instant: written out in UTC so no zone moves it. */
const DAY = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * A person's custom profile field values, as `<dt>`/`<dd>` pairs for their card's list: each
 * field that has a value, under the field's name, in the realm's order. Reads the realm's
 * signals, so an open card redraws when a field or a value changes.
 */
export function ProfileFieldValues({ userId }: { userId: number }) {
  const { session } = useChat();
  return (
    <>
      {session.realm.profileFields.shownFor(userId).map(({ field, shown }) => (
        <ShownField key={field.id} name={field.name} shown={shown} />
      ))}
    </>
  );
}

function ShownField({ name, shown }: { name: string; shown: ShownValue }) {
  const { session } = useChat();
  const realm = session.realm;
  if (shown.kind === 'html') {
    // The server's Markdown, made safe as a message's content is.
    return (
      <>
        <dt>{name}</dt>
        <dd class="profile-field-rendered" dangerouslySetInnerHTML={{ __html: messageHtml(shown.html, session.api.server) }} />
      </>
    );
  }
  return (
    <>
      <dt>{name}</dt>
      <dd>
        {shown.kind === 'text' && shown.text}
        {shown.kind === 'date' && DAY.format(new Date(`${shown.date}T00:00:00Z`))}
        {shown.kind === 'people' && shown.userIds.map((id) => realm.userName(id)).join(', ')}
        {shown.kind === 'link' && (
          <a href={shown.href} target="_blank" rel="noopener noreferrer">
            {shown.text}
          </a>
        )}
      </dd>
    </>
  );
}
