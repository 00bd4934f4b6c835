export const ROLES = ['guest', 'researcher', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { guest: 0, researcher: 1, operator: 2, admin: 3 };

/** An unknown role string is treated as `researcher` (specification, gate rule 4). */
export function normalizeRole(value: unknown): Role {
  if (value === 'viewer') return 'guest';
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
    ? (value as Role)
    : 'researcher';
}

export function hasRoleAtLeast(role: Role, floor: Role): boolean {
  return RANK[role] >= RANK[floor];
}
