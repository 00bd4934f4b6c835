/** UniProt REST `fields` for the metadata columns, and the TSV labels they come back under. */
export const METADATA_COLUMNS: readonly { field: string; label: string; column: string }[] = [
  { field: 'absorption', label: 'Absorption', column: 'absorption' },
  { field: 'ft_act_site', label: 'Active site', column: 'active_site' },
  { field: 'cc_activity_regulation', label: 'Activity regulation', column: 'activity_regulation' },
  { field: 'ft_binding', label: 'Binding site', column: 'binding_site' },
  { field: 'cc_catalytic_activity', label: 'Catalytic activity', column: 'catalytic_activity' },
  { field: 'cc_cofactor', label: 'Cofactor', column: 'cofactor' },
  { field: 'ft_dna_bind', label: 'DNA binding', column: 'dna_binding' },
  { field: 'ec', label: 'EC number', column: 'ec_number' },
  { field: 'cc_function', label: 'Function [CC]', column: 'function_cc' },
  { field: 'keyword', label: 'Keywords', column: 'keywords' },
  { field: 'kinetics', label: 'Kinetics', column: 'kinetics' },
  { field: 'cc_pathway', label: 'Pathway', column: 'pathway' },
  { field: 'ph_dependence', label: 'pH dependence', column: 'ph_dependence' },
  { field: 'redox_potential', label: 'Redox potential', column: 'redox_potential' },
  { field: 'rhea', label: 'Rhea ID', column: 'rhea_id' },
  { field: 'ft_site', label: 'Site', column: 'site' },
  { field: 'temp_dependence', label: 'Temperature dependence', column: 'temperature_dependence' },
  { field: 'ft_region', label: 'Region', column: 'features' },
];

export interface UniProtMetadataRow {
  lineNumber: number;
  canonicalAccession: string;
  values: Record<string, string | null>;
}

/**
 * Reads a `format=tsv` answer whose first column is the entry accession and whose other columns are
 * metadata labels; empty cells become null, unknown columns are ignored, isoform rows map to their
 * canonical accession.
 */
export function parseUniProtMetadataTsv(lines: Iterable<string>): {
  rows: UniProtMetadataRow[];
  problems: { lineNumber: number; message: string }[];
} {
  const rows: UniProtMetadataRow[] = [];
  const problems: { lineNumber: number; message: string }[] = [];
  let header: string[] | null = null;
  let lineNumber = 0;
  for (const raw of lines) {
    lineNumber += 1;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    if (header === null) {
      header = cells.map((c) => c.trim());
      if (header[0] !== 'Entry')
        problems.push({ lineNumber, message: `first column must be 'Entry', got '${header[0] ?? ''}'` });
      continue;
    }
    const accession = (cells[0] ?? '').trim();
    if (accession === '') {
      problems.push({ lineNumber, message: 'row without an accession' });
      continue;
    }
    const values: Record<string, string | null> = {};
    header.forEach((label, index) => {
      const column = METADATA_COLUMNS.find((c) => c.label === label)?.column;
      if (column === undefined) return;
      const cell = (cells[index] ?? '').trim();
      values[column] = cell === '' ? null : cell;
    });
    rows.push({ lineNumber, canonicalAccession: accession.replace(/-\d+$/, ''), values });
  }
  return { rows, problems };
}
