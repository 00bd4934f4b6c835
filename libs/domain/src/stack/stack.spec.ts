import { parseStackFile, toPullRequest } from './stack';

describe('parseStackFile', () => {
  it('fills defaults and reports bad entries', () => {
    const { repos, problems } = parseStackFile({
      repos: [
        { name: 'service', slug: 'lab/service', role: 'core', summary: 'the API' },
        { name: 'plugin-x', slug: 'lab/plugin-x', role: 'plugin', docs_url: 'https://docs.example/x' },
        { name: 'broken', slug: 'no-owner' },
        'not an object',
      ],
    });
    expect(repos.map((r) => [r.name, r.role_label, r.github_url])).toEqual([
      ['service', 'Core service', 'https://github.com/lab/service'],
      ['plugin-x', 'Plugin', 'https://github.com/lab/plugin-x'],
    ]);
    expect(repos[1]!.docs_url).toBe('https://docs.example/x');
    expect(problems).toHaveLength(2);
  });
  it.each([[null], [{}], [{ repos: 'x' }]])('no list, no repos (%p)', (raw) =>
    expect(parseStackFile(raw).repos).toEqual([]),
  );
});

describe('toPullRequest', () => {
  it('maps the code host fields', () => {
    expect(
      toPullRequest('lab/service', {
        number: 7,
        title: 'Faster kNN',
        html_url: 'https://github.com/lab/service/pull/7',
        state: 'open',
        draft: true,
        user: { login: 'ada' },
        created_at: '2026-11-01T00:00:00Z',
        updated_at: '2026-11-02T00:00:00Z',
        labels: [{ name: 'perf' }, { id: 3 }],
      }),
    ).toEqual({
      repo: 'lab/service',
      number: 7,
      title: 'Faster kNN',
      url: 'https://github.com/lab/service/pull/7',
      state: 'open',
      draft: true,
      author: 'ada',
      created_at: '2026-11-01T00:00:00Z',
      updated_at: '2026-11-02T00:00:00Z',
      labels: ['perf'],
    });
    expect(toPullRequest('x/y', { title: 'no number' })).toBeNull();
  });
});
