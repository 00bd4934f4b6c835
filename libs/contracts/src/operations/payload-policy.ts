import { PingPayload } from './ping.payload';
import { FetchUniprotMetadataPayload } from './reference-data.payloads';

/**
 * The caps of the role-aware payload policies, from the security settings (docs/security.md). Staff
 * (operators, administrators and the service itself) get the `operator` caps, everyone else the
 * `researcher` ones.
 */
export interface OperationLimits {
  /** Longest `sleep_seconds` of a ping queued by someone who is not staff. */
  readonly pingMaxSleepSeconds: number;
  /** Most UniProt rows one `fetch_uniprot_metadata` job reads. */
  readonly uniprotMaxRows: { readonly researcher: number; readonly operator: number };
  /** Most UniProt result pages (requests) one `fetch_uniprot_metadata` job reads. */
  readonly uniprotMaxPages: { readonly researcher: number; readonly operator: number };
}

/** Who a payload is checked for. */
export interface PolicyContext {
  /** Operators, administrators and the service (system jobs); false for researchers and guests. */
  readonly staff: boolean;
  readonly limits: OperationLimits;
}

/** Why a payload that passes its schema may not be queued by this submitter. */
export interface PayloadRefusal {
  /** `forbidden`: a value only staff may use (403). `over_limit`: over the submitter's cap (422). */
  readonly kind: 'forbidden' | 'over_limit';
  /** The payload field the refusal is about. */
  readonly field: string;
  readonly message: string;
}

/**
 * A per-operation check of a validated payload against the submitter's role: the values the schema
 * allows to staff but not to everyone. Runs at submission (POST /jobs, the dedicated routes and
 * every follow-up) and again in the worker with the role recorded on the job.
 */
export type PayloadPolicy<P> = (payload: P, context: PolicyContext) => PayloadRefusal | null;

/** The longest ping anyone may ask for (the schema's maximum); staff are held to this only. */
export const PING_MAX_SLEEP_SECONDS = 3600;

/**
 * `ping` is the operators' probe: everyone else may sleep at most `pingMaxSleepSeconds` (so nobody
 * holds the `svc.ping` queue that operators probe the workers with), and only staff may ask it to fail.
 */
export const pingPolicy: PayloadPolicy<PingPayload> = (payload, { staff, limits }) => {
  if (staff) return null;
  if (payload.fail === true)
    return { kind: 'forbidden', field: 'fail', message: 'a ping that fails on purpose needs role operator' };
  const cap = limits.pingMaxSleepSeconds;
  if ((payload.sleep_seconds ?? 0) > cap)
    return {
      kind: 'over_limit',
      field: 'sleep_seconds',
      message: `sleep_seconds may be at most ${cap} below role operator (operators up to ${PING_MAX_SLEEP_SECONDS})`,
    };
  return null;
};

/** UniProt's largest page, the default `page_size` of the UniProt searches. */
export const UNIPROT_DEFAULT_PAGE_SIZE = 500;

/** What one `fetch_uniprot_metadata` job may read: whole pages of `pageSize`, up to both caps. */
export interface UniprotFetchBounds {
  readonly pageSize: number;
  readonly maxRows: number;
  readonly maxPages: number;
}

/**
 * The bounds a `fetch_uniprot_metadata` job runs within: the payload's `max_pages` (times its page
 * size, in rows) when given, never more than the submitter's caps; without it, the caps themselves.
 */
export function uniprotFetchBounds(
  payload: Pick<FetchUniprotMetadataPayload, 'page_size' | 'max_pages'>,
  context: PolicyContext,
): UniprotFetchBounds {
  const caps = uniprotCaps(context);
  const pageSize = payload.page_size ?? UNIPROT_DEFAULT_PAGE_SIZE;
  if (payload.max_pages === undefined) return { pageSize, maxRows: caps.rows, maxPages: caps.pages };
  return {
    pageSize,
    maxRows: Math.min(payload.max_pages * pageSize, caps.rows),
    maxPages: Math.min(payload.max_pages, caps.pages),
  };
}

/**
 * `fetch_uniprot_metadata` is open to researchers as a light fetch: `max_pages` (and with it
 * `max_pages` x `page_size` rows) may not pass the submitter's caps, and `update_protein_core`, which
 * rewrites reference proteins, is for staff only.
 */
export const fetchUniprotMetadataPolicy: PayloadPolicy<FetchUniprotMetadataPayload> = (payload, context) => {
  if (!context.staff && payload.update_protein_core === true)
    return {
      kind: 'forbidden',
      field: 'update_protein_core',
      message: 'update_protein_core (it rewrites reference proteins) needs role operator',
    };
  if (payload.max_pages === undefined) return null;
  const caps = uniprotCaps(context);
  const who = context.staff ? 'operators' : 'researchers';
  if (payload.max_pages > caps.pages)
    return {
      kind: 'over_limit',
      field: 'max_pages',
      message: `max_pages may be at most ${caps.pages} for ${who}`,
    };
  const rows = payload.max_pages * (payload.page_size ?? UNIPROT_DEFAULT_PAGE_SIZE);
  if (rows > caps.rows)
    return {
      kind: 'over_limit',
      field: 'max_pages',
      message: `max_pages x page_size (${rows} rows) may be at most ${caps.rows} rows for ${who}`,
    };
  return null;
};

function uniprotCaps({ staff, limits }: PolicyContext): { rows: number; pages: number } {
  const tier = staff ? 'operator' : 'researcher';
  return { rows: limits.uniprotMaxRows[tier], pages: limits.uniprotMaxPages[tier] };
}

/**
 * Embedding or predicting without a `query_set_id` works on every embedded protein of the service:
 * one such request would take a worker for as long as the pool is large, and no sequence quota
 * could charge it. It is for staff; everyone else names the query set of their own sequences.
 */
export const wholePoolPolicy: PayloadPolicy<{ query_set_id?: string }> = (payload, { staff }) => {
  if (staff || (payload.query_set_id !== undefined && payload.query_set_id !== null)) return null;
  return {
    kind: 'forbidden',
    field: 'query_set_id',
    message:
      'without query_set_id the work covers every embedded protein and needs role operator; upload your sequences as a query set and name it',
  };
};
