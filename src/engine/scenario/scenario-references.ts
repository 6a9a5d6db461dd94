import { type Scenario, ScenarioError } from './scenario-schema.ts';

/**
 * The checks a schema cannot make: names unique, every reference to a user, folder or channel
 * resolvable, bots' owners real. Faults are reported at their JSON path. Permission rules
 * (posting policy, topic policy) are checked when messages replay through the send action.
 */
export function checkScenarioReferences(scenario: Scenario): void {
  const emails = new Set<string>();
  for (const [i, user] of scenario.users.entries()) {
    if (emails.has(user.email)) throw new ScenarioError(`$.users[${i}].email`, `duplicate email ${user.email}`);
    emails.add(user.email);
    if (!user.is_bot && (user.bot_type !== undefined || user.bot_owner !== undefined)) {
      throw new ScenarioError(`$.users[${i}]`, 'bot_type and bot_owner are for bots ("is_bot": true)');
    }
  }
  const keys = new Set<string>();
  for (const [i, user] of scenario.users.entries()) {
    if (user.api_key !== undefined) {
      if (keys.has(user.api_key)) throw new ScenarioError(`$.users[${i}].api_key`, 'duplicate api_key');
      keys.add(user.api_key);
    }
    if (user.bot_owner !== undefined) {
      const owner = scenario.users.find((u) => u.email === user.bot_owner);
      if (!owner) throw new ScenarioError(`$.users[${i}].bot_owner`, `no user ${user.bot_owner}`);
      if (owner.is_bot) throw new ScenarioError(`$.users[${i}].bot_owner`, 'a bot cannot own a bot');
    }
  }
  const requireUser = (path: string, email: string) => {
    if (!emails.has(email)) throw new ScenarioError(path, `no user ${email}`);
  };

  const folders = new Set<string>();
  for (const [i, folder] of scenario.channel_folders.entries()) {
    const key = folder.name.toLowerCase();
    if (folders.has(key)) throw new ScenarioError(`$.channel_folders[${i}].name`, `duplicate folder ${folder.name}`);
    folders.add(key);
  }
  const channels = new Set<string>();
  for (const [i, channel] of scenario.channels.entries()) {
    const key = channel.name.toLowerCase();
    if (channels.has(key)) throw new ScenarioError(`$.channels[${i}].name`, `duplicate channel ${channel.name}`);
    channels.add(key);
    if (channel.folder !== undefined && !folders.has(channel.folder.toLowerCase())) {
      throw new ScenarioError(`$.channels[${i}].folder`, `no folder ${channel.folder}`);
    }
    channel.subscribers.forEach((email, j) => requireUser(`$.channels[${i}].subscribers[${j}]`, email));
  }
  const moderation = scenario.realm.moderation_request_channel;
  if (moderation !== undefined && !channels.has(moderation.toLowerCase())) {
    throw new ScenarioError('$.realm.moderation_request_channel', `no channel ${moderation}`);
  }

  for (const [i, message] of scenario.messages.entries()) {
    const at = `$.messages[${i}]`;
    requireUser(`${at}.sender`, message.sender);
    if (message.channel !== undefined && !channels.has(message.channel.toLowerCase())) {
      throw new ScenarioError(`${at}.channel`, `no channel ${message.channel}`);
    }
    message.to?.forEach((email, j) => requireUser(`${at}.to[${j}]`, email));
    message.reactions.forEach((r, j) => requireUser(`${at}.reactions[${j}].user`, r.user));
    message.starred_by.forEach((email, j) => requireUser(`${at}.starred_by[${j}]`, email));
    message.unread_for.forEach((email, j) => requireUser(`${at}.unread_for[${j}]`, email));
    if (i > 0 && message.timestamp !== undefined) {
      const previous = scenario.messages[i - 1].timestamp;
      if (previous !== undefined && message.timestamp < previous) {
        throw new ScenarioError(`${at}.timestamp`, 'timestamps must not decrease in file order');
      }
    }
    message.edits.forEach((edit, j) => {
      if (message.timestamp !== undefined && edit.timestamp <= message.timestamp) {
        throw new ScenarioError(`${at}.edits[${j}].timestamp`, "an edit comes after its message's timestamp");
      }
    });
  }
}
