import { apiLog } from '../api-log.ts';
import { useChat } from '../chat-context.ts';

/**
 * The API traffic of the chat you are using: this tab's requests and the events it received,
 * and (with the server in this browser) every tab's requests as the server saw them.
 */
export function ApiLogPanel() {
  const { local } = useChat();
  const entries = apiLog.entries.value;
  return (
    <div class="api-log">
      <p class="hint">
        Newest first. {local ? 'Requests from every tab of this browser, as the server in it saw them (server), ' : ''}this tab's own calls (app) and the events
        its queue delivered (event).
      </p>
      <ol>
        {entries.map((entry, index) => (
          <li key={`${entry.at}-${index}`} class={`log-line ${entry.source} ${entry.status >= 400 ? 'failed' : ''}`}>
            <time>{new Date(entry.at).toLocaleTimeString()}</time>
            <span class="log-source">{entry.source}</span>
            {entry.source !== 'event' && <span class="log-status">{entry.status}</span>}
            <span class="log-what">
              {entry.method} {entry.path}
            </span>
            {entry.source !== 'event' && <span class="log-ms">{entry.ms} ms</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}
