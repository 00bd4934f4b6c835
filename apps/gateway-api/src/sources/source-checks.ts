import { DomainError } from '@svc/contracts';
import { Infrastructure } from '@svc/bootstrap';
import { checkSource, SourceError, SourcePolicy, sourcePolicyOf } from '@svc/platform';

/** The payload fields of each operation that name a source a worker will read. */
export const PAYLOAD_SOURCE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  load_ontology_snapshot: ['obo_url'],
  load_goa_annotations: ['gaf_url'],
  insert_proteins: ['source_url'],
  load_interpro_go_mapping: ['url'],
  load_ncbi_taxonomy: ['nodes_url'],
  run_cafa_evaluation: ['ia_file', 'toi_file'],
};

/** The gateway's source policy: the same settings the workers read with, and the same store. */
export function gatewaySourcePolicy(infra: Infrastructure): SourcePolicy {
  return sourcePolicyOf(infra.config, infra.artifacts);
}

/** A source failure as the client sees it: 422 problem+json naming the field, with the source's code. */
export function sourceProblem(field: string, error: SourceError): DomainError {
  return new DomainError('validation_error', `${field}: ${error.message}`, { code: error.code }, [
    { path: field, message: error.message },
  ]);
}

/** Runs a read of a source in the gateway process, answering its SourceErrors as 422 problems. */
export async function readingSource<T>(field: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof SourceError) throw sourceProblem(field, error);
    throw error;
  }
}

/**
 * Refuses (422, code `source_not_allowed`) a source the workers would refuse, where it is named:
 * so a load that cannot run is never queued, and a reference that cannot be read is never stored.
 */
export function checkSourceField(field: string, source: string, policy: SourcePolicy): Promise<void> {
  return readingSource(field, () => checkSource(source, policy));
}

/** `checkSourceField` for every source an operation's payload names. */
export async function checkPayloadSources(
  operation: string,
  payload: Readonly<Record<string, unknown>>,
  infra: Infrastructure,
): Promise<void> {
  const fields = PAYLOAD_SOURCE_FIELDS[operation] ?? [];
  if (fields.length === 0) return;
  const policy = gatewaySourcePolicy(infra);
  for (const field of fields) {
    const value = payload[field];
    if (typeof value === 'string') await checkSourceField(field, value, policy);
  }
}
