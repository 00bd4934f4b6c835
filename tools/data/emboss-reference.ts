import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseFasta, seededRandom } from '@svc/domain';

/**
 * Writes the EMBOSS reference fixture that alignment.emboss.spec.ts compares our aligners with:
 * sequence pairs from the tiny and mini data sets (related, unrelated, of varied lengths), mutants
 * of real proteins with indels, and short synthetic pairs full of ties, each aligned by EMBOSS needle
 * and water with BLOSUM62, gap open 10, gap extend 1 (Debian package `emboss`).
 *
 *   node -r ./tools/register.js tools/data/emboss-reference.ts [--data DIR] [--out FILE]
 *
 * The selection is seeded, so a rerun picks the same pairs; the output records the EMBOSS version.
 */

type Kind = 'related' | 'unrelated' | 'tiny' | 'mutant' | 'synthetic';

interface EmbossCounts {
  length: number;
  identical: number;
  similar: number;
  gaps: number;
  score: number;
}

interface ReferencePair {
  kind: Kind;
  a: string;
  b: string;
  seqA: string;
  seqB: string;
  needle: EmbossCounts;
  water: EmbossCounts;
}

interface Protein {
  accession: string;
  sequence: string;
}

const EMBOSS_ARGS = ['-gapopen', '10', '-gapextend', '1', '-datafile', 'EBLOSUM62'];

function readProteins(path: string): Protein[] {
  const { records, problems } = parseFasta(readFileSync(path, 'utf8'));
  if (problems.length > 0) throw new Error(`${path}: ${problems[0]?.message ?? 'unreadable'}`);
  return records.map((r) => ({ accession: r.identifier, sequence: r.sequence }));
}

function kmerSet(sequence: string): Set<string> {
  const kmers = new Set<string>();
  for (let i = 0; i + 4 <= sequence.length; i += 1) kmers.add(sequence.slice(i, i + 4));
  return kmers;
}

/** The most similar pairs by shared 4-mers (paralogs and family members), each protein used once. */
function relatedPairs(proteins: Protein[], count: number): [Protein, Protein][] {
  const sets = proteins.map((p) => kmerSet(p.sequence));
  const scored: { i: number; j: number; share: number }[] = [];
  for (let i = 0; i < proteins.length; i += 1) {
    for (let j = i + 1; j < proteins.length; j += 1) {
      const [small, large] = [sets[i]!, sets[j]!].sort((x, y) => x.size - y.size) as [
        Set<string>,
        Set<string>,
      ];
      let shared = 0;
      for (const kmer of small) if (large.has(kmer)) shared += 1;
      if (small.size > 0) scored.push({ i, j, share: shared / small.size });
    }
  }
  scored.sort((x, y) => y.share - x.share);
  const used = new Set<number>();
  const pairs: [Protein, Protein][] = [];
  for (const { i, j } of scored) {
    if (pairs.length === count) break;
    if (used.has(i) || used.has(j)) continue;
    used.add(i);
    used.add(j);
    pairs.push([proteins[i]!, proteins[j]!]);
  }
  return pairs;
}

/** Random pairs drawn from length bands, so short, medium and long sequences all meet. */
function unrelatedPairs(proteins: Protein[], random: () => number): [Protein, Protein][] {
  const band = (min: number, max: number): Protein[] =>
    proteins.filter((p) => p.sequence.length >= min && p.sequence.length < max);
  const bands = { short: band(0, 200), medium: band(200, 700), long: band(700, 1500), huge: band(1500, 1e9) };
  const pick = (from: Protein[]): Protein => from[Math.floor(random() * from.length)]!;
  const plan: [Protein[], Protein[]][] = [
    [bands.short, bands.short],
    [bands.short, bands.short],
    [bands.short, bands.medium],
    [bands.short, bands.long],
    [bands.medium, bands.medium],
    [bands.medium, bands.medium],
    [bands.medium, bands.medium],
    [bands.medium, bands.long],
    [bands.medium, bands.long],
    [bands.long, bands.long],
    [bands.long, bands.huge],
    [bands.huge, bands.medium],
  ];
  return plan.map(([x, y]) => [pick(x), pick(y)]);
}

const AMINO_ACIDS = 'ACDEFGHIKLMNPQRSTVWY';

/** A copy of a real protein with substitutions, short insertions and deletions, and trimmed ends. */
function mutate(sequence: string, random: () => number, rate: number): string {
  const out: string[] = [];
  const residue = (): string => AMINO_ACIDS.charAt(Math.floor(random() * AMINO_ACIDS.length));
  const start = Math.floor(random() * 12);
  const end = sequence.length - Math.floor(random() * 12);
  for (let i = start; i < end; i += 1) {
    const roll = random();
    if (roll < rate * 0.1) i += Math.floor(random() * 8);
    else if (roll < rate * 0.2) for (let k = 1 + Math.floor(random() * 8); k > 0; k -= 1) out.push(residue());
    else out.push(roll < rate ? residue() : sequence.charAt(i));
  }
  return out.join('');
}

/** Short pairs full of equal-scoring alternatives, plus the ambiguity letters B, Z, X and '*'. */
const SYNTHETIC: [string, string][] = [
  ['AAAAAAAAAAAA', 'AAAAA'],
  ['GSGSGSGSGSGSGSGS', 'GSGSGGSGS'],
  ['MKKKKLLLLWWWKKKK', 'MKKLLWWKKKKKKK'],
  ['HEAGAWGHEE', 'PAWHEAE'],
  ['MSTNPKPQRKTKRNTNRRPQDVKFPGG', 'MSTNPKPQRXTKRBTNZRPQDV*KFPGG'],
  ['PPPPPPPPWPPPPPPPP', 'PPPWPPPPPPPPPPPPPPPP'],
  ['WCWCWCWCAAAAAAAAWCWC', 'WCAAAAWCWCWCWC'],
  ['QQQQQEEEEEDDDDDNNNNN', 'NNNNNDDDDDEEEEEQQQQQ'],
  // water charges the gap after the first W only an extension (its column-0 quirk).
  ['WAWWWWAAA', 'WAWWWAAA'],
];

function parseSrsPair(output: string, program: string): EmbossCounts {
  const read = (label: string): RegExpExecArray => {
    const match = new RegExp(`^# ${label}:\\s+(-?[\\d.]+)(?:/(\\d+))?`, 'm').exec(output);
    if (match === null) throw new Error(`${program}: no '# ${label}:' line in\n${output}`);
    return match;
  };
  return {
    length: Number(read('Length')[1]),
    identical: Number(read('Identity')[1]),
    similar: Number(read('Similarity')[1]),
    gaps: Number(read('Gaps')[1]),
    score: Number(read('Score')[1]),
  };
}

function runEmboss(program: 'needle' | 'water', dir: string, a: string, b: string): EmbossCounts {
  const fileA = join(dir, 'a.fasta');
  const fileB = join(dir, 'b.fasta');
  writeFileSync(fileA, `>a\n${a}\n`);
  writeFileSync(fileB, `>b\n${b}\n`);
  const output = execFileSync(
    program,
    // -sprotein: short sequences such as 'GSGS' would otherwise be read as nucleotides.
    ['-asequence', fileA, '-sprotein1', '-bsequence', fileB, '-sprotein2', ...EMBOSS_ARGS].concat([
      '-aformat3',
      'srspair',
      '-outfile',
      'stdout',
      '-auto',
    ]),
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return parseSrsPair(output, program);
}

export function buildEmbossReference(dataDir: string): { emboss: string; pairs: ReferencePair[] } {
  const mini = readProteins(join(dataDir, 'mini', 'sequences.fasta'));
  const tiny = readProteins(join(dataDir, 'tiny', 'sequences.fasta'));
  const random = seededRandom(20261123);
  const chosen: { kind: Kind; a: Protein; b: Protein }[] = [];
  for (const [a, b] of relatedPairs(mini, 10)) chosen.push({ kind: 'related', a, b });
  for (const [a, b] of unrelatedPairs(mini, random)) chosen.push({ kind: 'unrelated', a, b });
  for (let k = 0; k < 5; k += 1) {
    const a = tiny[Math.floor(random() * tiny.length)]!;
    const b = tiny[Math.floor(random() * tiny.length)]!;
    chosen.push({ kind: 'tiny', a, b });
  }
  const modest = mini.filter((p) => p.sequence.length < 900);
  [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6].forEach((rate, k) => {
    const a = modest[Math.floor(random() * modest.length)]!;
    chosen.push({
      kind: 'mutant',
      a,
      b: { accession: `mutant-${k + 1}-of-${a.accession}`, sequence: mutate(a.sequence, random, rate) },
    });
  });
  SYNTHETIC.forEach(([a, b], k) =>
    chosen.push({
      kind: 'synthetic',
      a: { accession: `synthetic-${k + 1}a`, sequence: a },
      b: { accession: `synthetic-${k + 1}b`, sequence: b },
    }),
  );

  const dir = mkdtempSync(join(tmpdir(), 'emboss-reference-'));
  try {
    const pairs = chosen.map(({ kind, a, b }) => ({
      kind,
      a: a.accession,
      b: b.accession,
      seqA: a.sequence,
      seqB: b.sequence,
      needle: runEmboss('needle', dir, a.sequence, b.sequence),
      water: runEmboss('water', dir, a.sequence, b.sequence),
    }));
    const emboss = execFileSync('embossversion', ['-auto'], { encoding: 'utf8' }).trim();
    return { emboss, pairs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string): string =>
    args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
  const dataDir = option('--data', resolve(__dirname, '../../../shared/data'));
  const out = option(
    '--out',
    resolve(__dirname, '../../libs/domain/testing/alignment/emboss-reference.json'),
  );
  const { emboss, pairs } = buildEmbossReference(dataDir);
  const fixture = {
    generator: 'tools/data/emboss-reference.ts',
    emboss,
    needle: `needle ${EMBOSS_ARGS.join(' ')} (end gaps free, the default)`,
    water: `water ${EMBOSS_ARGS.join(' ')}`,
    pairs,
  };
  writeFileSync(out, `${JSON.stringify(fixture, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ out, pairs: pairs.length })}\n`);
}
