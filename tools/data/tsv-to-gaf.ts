import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { basename } from 'node:path';
import { formatGafLine } from '@svc/domain';

/**
 * Converts a human annotation table (`uniprot_acc entrez_gene go_id aspect evidence`, from NCBI
 * gene2go) into GAF 2.1. The table has no qualifier, reference, date or curator, so those columns are
 * filled honestly: an empty qualifier, the NCBI Gene record as the reference, the snapshot date (from
 * the file name) as the date, and NCBI as the assigning database.
 *
 *   node -r ./tools/register.js tools/data/tsv-to-gaf.ts IN.tsv[.gz] OUT.gaf
 */
export async function convertTsvToGaf(input: string, output: string): Promise<{ rows: number }> {
  const date = /(\d{4})-(\d{2})-(\d{2})/.exec(basename(input));
  if (date === null) throw new Error(`no snapshot date (YYYY-MM-DD) in the file name ${input}`);
  const gafDate = `${date[1]}${date[2]}${date[3]}`;
  const raw = createReadStream(input);
  const lines = createInterface({
    input: input.endsWith('.gz') ? raw.pipe(createGunzip()) : raw,
    crlfDelay: Infinity,
  });
  const out = createWriteStream(output);
  const write = (text: string): Promise<void> =>
    new Promise((resolve) => (out.write(text) ? resolve() : out.once('drain', () => resolve())));
  await write(
    `!gaf-version: 2.1\n!generated-by: tsv-to-gaf from ${basename(input)}\n!date-generated: ${date[0]}\n`,
  );
  let rows = 0;
  let header: string[] | null = null;
  for await (const line of lines) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const cells = line.split('\t');
    if (header === null) {
      header = cells;
      continue;
    }
    const [accession, entrez, goId, aspect, evidence] = cells;
    if (!accession || !goId || !aspect || !evidence) continue;
    await write(
      `${formatGafLine({
        db: 'UniProtKB',
        dbObjectId: accession,
        dbObjectSymbol: accession,
        goId,
        dbReference: entrez ? `NCBI_Gene:${entrez}` : 'NCBI:gene2go',
        evidenceCode: evidence,
        withFrom: null,
        aspect: aspect as 'F' | 'P' | 'C',
        dbObjectName: null,
        dbObjectSynonyms: [],
        dbObjectType: 'protein',
        taxa: ['9606'],
        date: gafDate,
        assignedBy: 'NCBI',
        annotationExtension: null,
        geneProductFormId: null,
      })}\n`,
    );
    rows += 1;
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return { rows };
}

if (require.main === module) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    process.stderr.write('usage: tsv-to-gaf IN.tsv[.gz] OUT.gaf\n');
    process.exit(2);
  }
  convertTsvToGaf(input, output).then(
    ({ rows }) => process.stdout.write(`${JSON.stringify({ output, rows })}\n`),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
