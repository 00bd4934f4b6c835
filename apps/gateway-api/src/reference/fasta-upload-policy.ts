import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError, hasRoleAtLeast } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure, quotaExceeded } from '@svc/jobs';
import { QuerySetRepository } from '@svc/persistence';
import { Principal } from '@svc/platform';
import { GATEWAY_AUTH, GatewayAuth } from '../auth/guards';
import { quotaKeyOf } from '../auth/limits.service';
import { SEQUENCE_QUOTA } from '../jobs/jobs.service';
import { FastaUpload, FastaUploadLimits, readFastaUpload } from './fasta-upload';
import { abandonBody } from '../http/abandon-body';

/**
 * What a FASTA upload is for: `annotate` charges its records to the caller's daily sequence quota
 * (so an upload is refused as soon as it passes what is left today); `query_set` stores a set for
 * later predictions, bounded per set by the role's daily sequence quota and per account in number.
 */
export type FastaUploadPurpose = 'annotate' | 'query_set';

/**
 * Every limit a FASTA upload meets before and while it is read, charged to the person (the account,
 * or a guest's address group), whatever the route: how many uploads at once, how large (a guest's
 * cap is far below a researcher's), how many records (the quota headroom), how long a sequence.
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
      return await readFastaUpload(request, { fields: input.fields, limits });
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
        refuse: () =>
          new DomainError(
            'payload_too_large',
            `a query set of a ${role} holds at most ${perSet} sequences (the daily sequence quota)`,
            { limit_records: perSet },
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
      throw quotaExceeded(SEQUENCE_QUOTA, { ...use, asked: 1 });
    }
    return {
      limit: left,
      refuse: (seen) => quotaExceeded(SEQUENCE_QUOTA, { ...use, asked: seen, atLeast: true }),
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
