import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { oboContentSha256, parseObo } from '@svc/domain';
import { subsetRelease } from './demo';

const SHARED = resolve(__dirname, '../../../shared/data');

describe('subsetRelease', () => {
  it('gives the shared holdout subset a data-version of its own and keeps its content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    try {
      const source = join(SHARED, 'mini/go-subset.2022-07-01.obo');
      const written = subsetRelease(source, join(dir, 'go.obo'), 'mini');
      const before = parseObo(readFileSync(source, 'utf8'));
      const after = parseObo(readFileSync(written, 'utf8'));
      expect(before.header.dataVersion).toBe('releases/2022-07-01');
      expect(after.header.dataVersion).toBe('releases/2022-07-01/mini-subset');
      expect(oboContentSha256(after)).toBe(oboContentSha256(before));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
