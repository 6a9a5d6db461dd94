import type { EngineConnection } from '../browser-host/page/engine-connection.ts';
import { REQUEST_LOG_CHANNEL } from '../browser-host/protocol/relay-protocol.ts';
import type { DemoAccount, LocalServer, ServerRequestEntry } from '../chat/host/local-server.ts';
import { downloadArchive, readArchiveFile } from '../console/archive-file.ts';
import { SCENARIOS } from '../console/scenario-catalog.ts';
import { scenarioCredentials } from '../console/scenario-credentials.ts';
import { recordedScenario, recordScenario } from '../console/scenario-record.ts';
import { serverLocation } from '../console/server-location.ts';

/** The chat app's view of the server in this browser: the browser host's engine connection behind the app's interface. */
export function localServer(engine: Promise<EngineConnection>): LocalServer {
  return {
    ready: engine.then(() => undefined),
    where: serverLocation(),
    scenarios: [...SCENARIOS],
    currentScenario: recordedScenario,

    async demoAccounts(): Promise<DemoAccount[]> {
      // A replica's people log in with their own credentials on the hub.
      if (await (await engine).replicaState()) return [];
      // The scenario file is read while the server starts, not after.
      const [summary, passwords] = await Promise.all([engine.then((connection) => connection.realmSummary()), scenarioCredentials(recordedScenario())]);
      return summary.users
        .filter((user) => !user.isBot && passwords.has(user.email.toLowerCase()))
        .map((user) => ({ email: user.email, fullName: user.fullName, password: passwords.get(user.email.toLowerCase()) ?? '' }));
    },

    async loadScenario(name: string): Promise<void> {
      await (await engine).loadScenario({ name });
      recordScenario(name);
    },

    async exportRealm(): Promise<string> {
      const archive = await (await engine).exportRealm();
      const host = (archive.tables.realm[0]?.host ?? 'realm').replace(/[^\w.-]/g, '_');
      const file = downloadArchive(archive, host);
      return `Exported ${archive.tables.messages.length} messages and ${archive.tables.users.length} users to ${file}.`;
    },

    async importRealm(file: File): Promise<void> {
      await (await engine).importRealm(await readArchiveFile(file));
    },

    onRequest(listener: (entry: ServerRequestEntry) => void): () => void {
      const channel = new BroadcastChannel(REQUEST_LOG_CHANNEL);
      channel.onmessage = ({ data }: MessageEvent<ServerRequestEntry>) => listener(data);
      return () => channel.close();
    },
  };
}
