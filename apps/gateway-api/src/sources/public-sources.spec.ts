import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Viewer } from '@svc/domain';
import { loadConfig } from '@svc/platform';
import { showSources, showSourcesOfEach } from './public-sources';

const config = loadConfig({
  env: {
    SVC_DB_URL: 'postgresql://db/svc',
    SVC_AMQP_URL: 'amqp://mq',
    SVC_ARTIFACTS_DIR: '/var/artifacts',
    SVC_SOURCE_ALLOWED_HOSTS: 'mirror.example.org',
  },
  // A folder without .env or config/system.yaml: the settings are the ones above.
  rootDir: mkdtempSync(join(tmpdir(), 'public-sources-')),
  onWarning: () => undefined,
});
const viewer = (role: Viewer['role'], unrestricted = false): Viewer => ({ role, userId: null, unrestricted });
const row = {
  id: 'x',
  obo_url: 'file:///var/artifacts/sources/1/go.obo',
  ia_url: 'https://mirror.example.org/ia/ia.tsv',
  source_url: null as string | null,
};

describe('showSources', () => {
  it.each([viewer('operator'), viewer('admin'), viewer('guest', true)])(
    'shows staff (and every caller of a closed deployment) the sources as stored',
    (who) => expect(showSources(row, ['obo_url', 'ia_url', 'source_url'], who, config)).toBe(row),
  );

  it.each([viewer('guest'), viewer('researcher')])('names them by file for %j', (who) => {
    expect(showSources(row, ['obo_url', 'ia_url', 'source_url'], who, config)).toEqual({
      id: 'x',
      obo_url: 'go.obo',
      // A listed host may be a mirror on the private network.
      ia_url: 'ia.tsv',
      source_url: null,
    });
    expect(showSourcesOfEach([row, row], ['obo_url'], who, config).map((r) => r.obo_url)).toEqual([
      'go.obo',
      'go.obo',
    ]);
    // The stored row is not changed.
    expect(row.obo_url).toBe('file:///var/artifacts/sources/1/go.obo');
  });
});
