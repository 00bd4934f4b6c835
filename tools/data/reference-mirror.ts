import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { referenceSpec, type ReferenceFile } from '@svc/domain';
import { convertTsvToGaf } from './tsv-to-gaf';

/**
 * A mirror of the `human` reference built from the shared data, for a site (or this machine) without
 * internet: the files at the catalog's mirror paths, as `wget --mirror` of the canonical sources
 * would lay them out, and a SHA256SUMS file over them.
 *
 * - the GO release 2022-07-01 (`go/go-basic.godb-3.16.0.2022-07-01.obo.gz`) as `go-basic.obo`;
 * - the human annotations of NCBI gene2go 2022-09-12 (every evidence code), converted to GAF
 *   (`tools/data/tsv-to-gaf.ts`) and gzipped, as `goa_human.gaf.gz` (a stand-in: the real GOA file
 *   has more annotations and UniProt's own);
 * - the human Swiss-Prot sequences of 2014-01 (17,857) as the UniProt stream's file.
 *
 *   npm run reference:mirror -- [--data ../shared/data] [--out var/mirror]
 *
 * Then: `SVC_SOURCE_ALLOWED_ROOTS=$PWD/var/mirror npm start` and
 * `npx svc reference install human --mirror $PWD/var/mirror` (README, "A real reference").
 */
export async function buildHumanMirror(dataDir: string, outDir: string): Promise<Map<string, string>> {
  const spec = referenceSpec('human')!;
  const pathOf = (role: ReferenceFile['role']): string => spec.files.find((f) => f.role === role)!.mirrorPath;
  const place = (path: string): string => {
    const target = join(outDir, path);
    mkdirSync(dirname(target), { recursive: true });
    return target;
  };
  copyFileSync(join(dataDir, 'go/go-basic.godb-3.16.0.2022-07-01.obo.gz'), place(pathOf('ontology')));
  const scratch = join(tmpdir(), `svc-mirror-${process.pid}.gaf`);
  try {
    await convertTsvToGaf(
      join(dataDir, 'human/human_go.orgHsEgDb-3.16.0.gene2go-2022-09-12.tsv.gz'),
      scratch,
    );
    writeFileSync(place(pathOf('annotations')), gzipSync(readFileSync(scratch)));
  } finally {
    rmSync(scratch, { force: true });
  }
  copyFileSync(
    join(dataDir, 'human/human_swissprot_seqs.metastudent-2014-01.fasta.gz'),
    place(pathOf('sequences')),
  );
  const sums = new Map<string, string>();
  for (const file of spec.files)
    sums.set(
      file.mirrorPath,
      createHash('sha256')
        .update(readFileSync(join(outDir, file.mirrorPath)))
        .digest('hex'),
    );
  writeFileSync(
    join(outDir, 'SHA256SUMS'),
    [...sums].map(([path, digest]) => `${digest}  ${path}\n`).join(''),
  );
  return sums;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string): string => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
  };
  const root = resolve(__dirname, '..', '..');
  const data = resolve(option('--data', join(root, '..', 'shared', 'data')));
  const out = resolve(option('--out', join(root, 'var', 'mirror')));
  const started = Date.now();
  buildHumanMirror(data, out).then(
    (sums) => {
      for (const [path, digest] of sums) process.stdout.write(`${digest}  ${path}\n`);
      process.stdout.write(
        `mirror of the human reference in ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
    },
    (error: unknown) => {
      process.stderr.write(`reference:mirror failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
