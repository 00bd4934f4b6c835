import { Viewer } from '@svc/domain';
import { Principal } from '@svc/platform';

/** The caller as the ownership rules see it; no principal (a route without the gate) is a guest. */
export function viewerOf(principal: Principal | undefined): Viewer {
  if (principal === undefined) return { role: 'guest', userId: null, unrestricted: false };
  return { role: principal.role, userId: principal.userId, unrestricted: principal.kind === 'gate_disabled' };
}
