import type { EngineConnectMessage, LeaderAnswer, LeaderQueryMessage } from '../protocol/leader-protocol.ts';

/** During a takeover the lock passes to the next tab within moments; wait no longer than this. */
const LEADER_WAIT_MS = 5_000;
/** A tab that does not answer within this is busy or closing; ask everyone again. */
const ANSWER_WAIT_MS = 1_000;
const RETRY_MS = 50;

/**
 * The Service Worker's part of the fallback without SharedWorker: it passes a follower tab's
 * port on to the leader tab, which hands it to its engine. Pages cannot send each other ports
 * directly, and only the tabs themselves know which of them leads, so they are asked.
 */
export async function passToLeader(clients: Clients, port: MessagePort): Promise<void> {
  const deadline = Date.now() + LEADER_WAIT_MS;
  while (Date.now() < deadline) {
    const leader = await findLeader(await clients.matchAll({ type: 'window', includeUncontrolled: true }));
    if (leader) {
      leader.postMessage({ type: 'engine-connect', port } satisfies EngineConnectMessage, [port]);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  port.close();
}

/** The first tab that says it leads; null once every tab has said no, or after ANSWER_WAIT_MS. */
function findLeader(windows: readonly Client[]): Promise<Client | null> {
  return new Promise((resolve) => {
    let unanswered = windows.length;
    const timer = setTimeout(() => resolve(null), ANSWER_WAIT_MS);
    const settle = (leader: Client | null) => {
      clearTimeout(timer);
      resolve(leader);
    };
    if (unanswered === 0) settle(null);
    for (const client of windows) {
      const channel = new MessageChannel();
      channel.port1.onmessage = ({ data }: MessageEvent<LeaderAnswer>) => {
        channel.port1.close();
        unanswered -= 1;
        if (data?.leads) settle(client);
        else if (unanswered === 0) settle(null);
      };
      client.postMessage({ type: 'leader-query' } satisfies LeaderQueryMessage, [channel.port2]);
    }
  });
}
