import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { producerInfo } from './producer-info';

describe('producerInfo', () => {
  it("names the workspace's version and, in a git checkout, a full commit id", async () => {
    const root = join(__dirname, '../../../../..');
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const info = await producerInfo();
    expect(info.version).toBe(version);
    expect(info.git_sha === null || /^[0-9a-f]{40}$/.test(info.git_sha)).toBe(true);
    expect(await producerInfo()).toBe(info); // read once
  });
});
