/**
 * Named references a site installs with one command (`svc reference install NAME`): one GO release,
 * one annotation file, the reference sequences, from their canonical public sources or from a
 * mirror of them (docs/reference.md). Each file has its canonical URL and its path inside a mirror,
 * the host and path of that URL (what `wget --mirror` writes), so that one mirror serves every
 * reference; a file whose source publishes no checksum may pin one here.
 */

export type ReferenceFileRole = 'ontology' | 'annotations' | 'sequences';

export interface ReferenceFile {
  role: ReferenceFileRole;
  url: string;
  /** Its path inside a mirror (a folder or a base URL). */
  mirrorPath: string;
  /** A pinned SHA-256 of the file's bytes, where the catalog knows one. */
  sha256?: string;
}

export interface ReferenceBundleSpec {
  name: string;
  description: string;
  /** NCBI taxon of the reference proteins. */
  taxon: string;
  /** Which annotations donate by default (the blend was fitted with experimental donors). */
  donorEvidence: 'experimental' | 'all';
  files: ReferenceFile[];
}

const GO_BASIC = 'https://purl.obolibrary.org/obo/go/go-basic.obo';

function file(role: ReferenceFileRole, url: string, mirrorPath?: string): ReferenceFile {
  const parsed = new URL(url);
  return { role, url, mirrorPath: mirrorPath ?? `${parsed.host}${parsed.pathname}` };
}

/** Reviewed (Swiss-Prot) entries of one organism as FASTA, from UniProt's REST stream. */
function swissProt(taxon: string, name: string): ReferenceFile {
  const query = encodeURIComponent(`(organism_id:${taxon}) AND (reviewed:true)`);
  return file(
    'sequences',
    `https://rest.uniprot.org/uniprotkb/stream?compressed=true&format=fasta&query=${query}`,
    `rest.uniprot.org/uniprotkb/${name}-swissprot.fasta.gz`,
  );
}

function goa(directory: string, name: string): ReferenceFile {
  return file('annotations', `https://ftp.ebi.ac.uk/pub/databases/GO/goa/${directory}/goa_${name}.gaf.gz`);
}

export const REFERENCE_CATALOG: readonly ReferenceBundleSpec[] = [
  {
    name: 'human',
    description: 'Human Swiss-Prot proteins with their GOA annotations, on the current GO release',
    taxon: '9606',
    donorEvidence: 'experimental',
    files: [file('ontology', GO_BASIC), goa('HUMAN', 'human'), swissProt('9606', 'human')],
  },
  {
    name: 'mouse',
    description: 'Mouse Swiss-Prot proteins with their GOA annotations, on the current GO release',
    taxon: '10090',
    donorEvidence: 'experimental',
    files: [file('ontology', GO_BASIC), goa('MOUSE', 'mouse'), swissProt('10090', 'mouse')],
  },
  {
    name: 'yeast',
    description:
      'Baker\u2019s yeast (S288C) Swiss-Prot proteins with their GOA annotations, on the current GO release',
    taxon: '559292',
    donorEvidence: 'experimental',
    files: [file('ontology', GO_BASIC), goa('YEAST', 'yeast'), swissProt('559292', 'yeast')],
  },
];

export function referenceSpec(name: string): ReferenceBundleSpec | null {
  return REFERENCE_CATALOG.find((spec) => spec.name === name) ?? null;
}

/**
 * Which annotations donate when a one-click run does not say: those of the installed reference it
 * annotates against (its catalog entry's `donorEvidence`), else experimental, the policy the blend
 * was fitted with (a reference loaded by hand, or an install whose name the catalog no longer has).
 */
export function defaultDonorEvidence(
  installedReference: string | null,
  catalog: readonly ReferenceBundleSpec[] = REFERENCE_CATALOG,
): 'experimental' | 'all' {
  if (installedReference === null) return 'experimental';
  return catalog.find((spec) => spec.name === installedReference)?.donorEvidence ?? 'experimental';
}

/** Where a file is read from: its canonical URL, or its path under the mirror (folder or base URL). */
export function sourceOf(file: ReferenceFile, mirror: string | null): string {
  if (mirror === null) return file.url;
  if (/^https?:\/\//i.test(mirror) || mirror.startsWith('file://'))
    return new URL(file.mirrorPath, mirror.endsWith('/') ? mirror : `${mirror}/`).href;
  return `${mirror.replace(/\/+$/, '')}/${file.mirrorPath}`;
}

/**
 * A `SHA256SUMS` file (`sha256sum` output: `<64 hex>  <path>`, `*` before a binary path) as a map
 * from path to digest; other lines are ignored.
 */
export function parseSha256Sums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.trim());
    if (match) sums.set(match[2]!.replace(/^\.\//, ''), match[1]!.toLowerCase());
  }
  return sums;
}
