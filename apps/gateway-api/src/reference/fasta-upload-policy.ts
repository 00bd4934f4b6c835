import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, hasRoleAtLeast } from '@svc/contracts';
import { describeNucleotideRecords, FastaResult, findNucleotideRecords } from '@svc/domain';
import { quotaExceeded } from '@svc/jobs';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { QuerySetRepository } from '@svc/persistence';
import { Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { quotaKeyOf } from '../auth/limits.service';
import { SEQUENCE_QUOTA } from '../jobs/jobs.service';
import { FastaUpload, FastaUploadLimits, readFastaUpload } from './fasta-upload';
import { abandonBody } from '../http/abandon-body';

/**
 * What a FASTA upload is for: `annotate` charges its records to the caller's daily sequence quota
 * (so an upload is refused once it passes what is left today, saying how many it holds);
 * `query_set` stores a set for later predictions, bounded per set by the role's daily sequence quota
 * and per account in number.
 */
export type FastaUploadPurpose = 'annotate' | 'query_set';

/**
 * Every limit a FASTA upload meets before and while it is read, charged to the person (the account,
 * or a guest's address group), whatever the route: how many uploads at once, how large (a guest's
 * cap is far below a researcher's), how many records (the quota headroom), how long a sequence; and
 * what it holds: nucleotide records are refused, whoever sends them.
 */
@Injectable()
export class FastaUploadPolicy {
  /** Uploads in progress per caller key, on this gateway replica. */
  private readonly inFlight = new Map<string, number>();

  constructor(
    @Inject(INFRASTRUCTURE) private readonly infra: Infrastructure,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
    private readonly querySets: QuerySetRepository,
  ) {}

  async receive(
    request: FastifyRequest,
    principal: Principal | undefined,
    input: { purpose: FastaUploadPurpose; fields: readonly string[] },
  ): Promise<FastaUpload> {
    const key = principal === undefined ? 'anonymous' : quotaKeyOf(principal);
    const release = this.takeSlot(request, key);
    try {
      const limits = await this.limitsFor(request, principal, input.purpose);
      const upload = await readFastaUpload(request, { fields: input.fields, limits });
      refuseNucleotideRecords(upload.fasta);
      return upload;
    } finally {
      release();
    }
  }

  private async limitsFor(
    request: FastifyRequest,
    principal: Principal | undefined,
    purpose: FastaUploadPurpose,
  ): Promise<FastaUploadLimits> {
    const security = this.infra.config.security;
    const role = principal?.role ?? 'guest';
    const staff = principal?.kind === 'gate_disabled' || hasRoleAtLeast(role, 'operator');
    const base = {
      maxBytes: role === 'guest' ? security.guestUploadLimitBytes : security.fastaUploadLimitBytes,
      maxSequenceLength: security.fastaMaxSequenceLength,
    };
    if (principal === undefined || staff) return { ...base, maxRecords: null };
    if (purpose === 'annotate') return { ...base, maxRecords: await this.headroom(request, principal) };
    if (principal.userId !== null) {
      const kept = await this.querySets.countOwnedBy(principal.userId);
      if (kept >= security.querySetsPerOwner) {
        abandonBody(request);
        throw new DomainError(
          'conflict',
          `you keep ${kept} query sets, the most an account may (${security.querySetsPerOwner}); delete some first`,
          { limit: security.querySetsPerOwner },
        );
      }
    }
    const perSet = this.auth.limits.dailyLimit(SEQUENCE_QUOTA, role);
    if (perSet === null) return { ...base, maxRecords: null };
    return {
      ...base,
      maxRecords: {
        limit: perSet,
        refuse: (seen, atLeast) =>
          new DomainError(
            'payload_too_large',
            `the file holds ${atLeast ? 'at least ' : ''}${seen} sequences; a query set of a ${role} ` +
              `holds at most ${perSet} (the daily sequence quota)`,
            { limit_records: perSet, records: seen },
          ),
      },
    };
  }

  /** The records a caller may still have annotated today; 429 before reading when nothing is left. */
  private async headroom(
    request: FastifyRequest,
    principal: Principal,
  ): Promise<FastaUploadLimits['maxRecords']> {
    const use = await this.auth.limits.dailyUse(principal, SEQUENCE_QUOTA);
    if (use === null) return null;
    const left = use.limit - use.used;
    if (left <= 0) {
      abandonBody(request);
      throw quotaExceeded(SEQUENCE_QUOTA, { ...use, asked: null });
    }
    return {
      limit: left,
      refuse: (seen, atLeast) => quotaExceeded(SEQUENCE_QUOTA, { ...use, asked: seen, atLeast }),
    };
  }

  /** One of the caller's concurrent upload slots, or 429 when all are taken. */
  private takeSlot(request: FastifyRequest, key: string): () => void {
    const limit = this.infra.config.security.uploadConcurrency;
    const taken = this.inFlight.get(key) ?? 0;
    if (taken >= limit) {
      abandonBody(request);
      throw new DomainError(
        'rate_limited',
        `at most ${limit} uploads at a time; wait for the others to finish`,
        { retry_after: 5, limit },
      );
    }
    this.inFlight.set(key, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, left);
    };
  }
}

/**
 * 422 naming the records that look like DNA or RNA: the service predicts for proteins, and a
 * nucleotide sequence read as one gets meaningless terms (or a search tool's refusal) instead of an
 * answer. Checked before any quota is charged.
 */
function refuseNucleotideRecords(fasta: FastaResult): void {
  const found = findNucleotideRecords({ records: fasta.records });
  if (found.length === 0) return;
  const { detail, problems } = describeNucleotideRecords(found);
  throw new DomainError(
    'validation_error',
    detail,
    { nucleotide_records: found.length },
    problems.slice(0, 200).map((p) => ({ path: `file:${p.lineNumber}`, message: p.message })),
  );
}
