/** The API's role numbers, most powerful first. */
export const ROLES = [
  { value: 100, label: 'Owner' },
  { value: 200, label: 'Administrator' },
  { value: 300, label: 'Moderator' },
  { value: 400, label: 'Member' },
  { value: 600, label: 'Guest' },
] as const;

export const MEMBER = 400;

export function roleName(role: number): string {
  return ROLES.find((r) => r.value === role)?.label ?? `Role ${role}`;
}

/** Only owners give (or take away) the owner role (spec 4.9, 4.11); the server refuses the rest. */
export function rolesGivenBy(isOwner: boolean): (typeof ROLES)[number][] {
  return ROLES.filter((role) => isOwner || role.value !== 100);
}
