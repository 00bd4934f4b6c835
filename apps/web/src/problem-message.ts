import type { components } from '@svc/client/contract';

type Problem = Partial<components['schemas']['ProblemView']>;

/** Field errors shown one by one; past this many the problem's detail, which sums them up, is shown. */
const LISTED_ERRORS = 3;

/**
 * The sentence a page shows for a refused request: the field errors when they are few (they name
 * the fields), else the detail (an upload with many refused records says how many, naming a few).
 */
export function problemMessage(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const problem = body as Problem;
    const details = (problem.errors ?? []).map((e) => e.message).filter((m): m is string => Boolean(m));
    if (details.length > LISTED_ERRORS && problem.detail) return problem.detail;
    if (details.length > 0) return details.join('; ');
    if (problem.detail) return problem.detail;
    if (problem.title) return problem.title;
  }
  return `request failed (HTTP ${status})`;
}
