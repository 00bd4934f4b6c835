/** One repository of the software stack, as `/stack` lists it. */
export interface RepoEntry {
  name: string;
  slug: string;
  role: 'core' | 'contracts' | 'plugin' | 'lab';
  role_label: string;
  status: string;
  summary: string;
  summary_es: string | null;
  github_url: string;
  docs_url: string | null;
  package_url: string | null;
}

const ROLES = ['core', 'contracts', 'plugin', 'lab'] as const;
const ROLE_LABELS: Record<RepoEntry['role'], string> = {
  core: 'Core service',
  contracts: 'Contracts',
  plugin: 'Plugin',
  lab: 'Lab',
};

/**
 * Reads the parsed stack file (`repos: [...]`). Entries without a `name` or an `owner/name` slug are
 * reported and skipped; other fields default (`role` core, `status` active, links null).
 */
export function parseStackFile(raw: unknown): { repos: RepoEntry[]; problems: string[] } {
  const list = (raw as { repos?: unknown } | null)?.repos;
  if (!Array.isArray(list))
    return { repos: [], problems: raw == null ? [] : ['the stack file has no `repos` list'] };
  const repos: RepoEntry[] = [];
  const problems: string[] = [];
  list.forEach((entry: unknown, i) => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const str = (key: string): string | null => (typeof e[key] === 'string' && e[key] !== '' ? e[key] : null);
    const name = str('name');
    const slug = str('slug');
    if (name === null || slug === null || !/^[\w.-]+\/[\w.-]+$/.test(slug)) {
      problems.push(`repos[${i}] needs a name and an owner/name slug`);
      return;
    }
    const role = (ROLES as readonly string[]).includes(str('role') ?? '')
      ? (str('role') as RepoEntry['role'])
      : 'core';
    repos.push({
      name,
      slug,
      role,
      role_label: str('role_label') ?? ROLE_LABELS[role],
      status: str('status') ?? 'active',
      summary: str('summary') ?? '',
      summary_es: str('summary_es'),
      github_url: str('github_url') ?? `https://github.com/${slug}`,
      docs_url: str('docs_url'),
      package_url: str('package_url'),
    });
  });
  return { repos, problems };
}

/** One open pull request as `/stack/pulls` lists it. */
export interface PullRequest {
  repo: string;
  number: number;
  title: string;
  url: string;
  state: string;
  draft: boolean;
  author: string | null;
  created_at: string;
  updated_at: string;
  labels: string[];
}

/** Maps one item of the code host's `GET /repos/{owner}/{repo}/pulls` answer. */
export function toPullRequest(repo: string, item: unknown): PullRequest | null {
  if (typeof item !== 'object' || item === null) return null;
  const p = item as Record<string, unknown>;
  if (typeof p['number'] !== 'number' || typeof p['title'] !== 'string') return null;
  const user = p['user'] as { login?: unknown } | null | undefined;
  const labels = Array.isArray(p['labels']) ? p['labels'] : [];
  return {
    repo,
    number: p['number'],
    title: p['title'],
    url: typeof p['html_url'] === 'string' ? p['html_url'] : '',
    state: typeof p['state'] === 'string' ? p['state'] : 'open',
    draft: p['draft'] === true,
    author: typeof user?.login === 'string' ? user.login : null,
    created_at: typeof p['created_at'] === 'string' ? p['created_at'] : '',
    updated_at: typeof p['updated_at'] === 'string' ? p['updated_at'] : '',
    labels: labels
      .map((l) => (l as { name?: unknown } | null)?.name)
      .filter((n): n is string => typeof n === 'string'),
  };
}
