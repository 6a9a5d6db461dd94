/** Email -> password of the users of a scenario file, for the console's demo credentials. */
export async function scenarioCredentials(name: string): Promise<Map<string, string>> {
  const passwords = new Map<string, string>();
  try {
    const response = await fetch(`/scenarios/${encodeURIComponent(name)}.json`);
    const scenario = (await response.json()) as { users?: { email?: unknown; password?: unknown }[] };
    for (const user of scenario.users ?? []) {
      if (typeof user.email === 'string' && typeof user.password === 'string') passwords.set(user.email.toLowerCase(), user.password);
    }
  } catch {
    // Without the file the console still lists everyone, just without passwords.
  }
  return passwords;
}
