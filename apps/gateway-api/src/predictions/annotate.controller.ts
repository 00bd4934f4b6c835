import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiTags } from '@nestjs/swagger';
import { AnnotateQuery, AnnotateView } from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidQuery } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { MultipartBody } from '../http/multipart-body';
import { FastaUploadPolicy } from '../reference/fasta-upload-policy';
import { KNOWN_TERMS_HEADER, TAXON_FIELD } from '../reference/reference.service';
import { AnnotateService } from './annotate.service';

const DONOR_EVIDENCE_FIELD =
  'Which reference annotations donate: experimental (experimental and high-throughput evidence codes) or all ' +
  "(every code, electronic included); default: the installed reference's policy, else experimental, the " +
  "policy the blend was calibrated with. Another policy than the calibration's is warned of " +
  '(donor_policy_differs_from_calibration); any other value is a 422';

@ApiTags('annotate')
@Controller('annotate')
export class AnnotateController {
  constructor(
    private readonly annotate: AnnotateService,
    private readonly uploads: FastaUploadPolicy,
  ) {}

  /**
   * multipart/form-data: `file` (FASTA), `name`, `taxon` (the NCBI taxonomy id of the records without
   * OX=), `donor_evidence` (which annotations donate). Guests may annotate with save_history=false under the daily sequence quota of their address;
   * save_history=true needs a researcher account.
   */
  @ApiDoc({
    summary: 'One-click annotation: upload a FASTA and queue its GO-term prediction',
    ok: AnnotateView,
    problems: [403, 409, 503],
  })
  @Post()
  @HttpCode(201)
  @Roles('guest')
  @MultipartBody({
    files: {
      file:
        'FASTA file of the proteins to annotate (up to SVC_FASTA_UPLOAD_LIMIT_BYTES; records that look like DNA or RNA are refused with 422). ' +
        KNOWN_TERMS_HEADER,
    },
    fields: {
      name: 'A name for the query set (default: the file name)',
      taxon: { description: TAXON_FIELD, example: '9606' },
      donor_evidence: {
        description: DONOR_EVIDENCE_FIELD,
        example: 'experimental',
        enum: ['experimental', 'all'],
      },
    },
    required: ['file'],
  })
  async create(
    @Req() request: FastifyRequest,
    @ValidQuery() query: AnnotateQuery,
    @CurrentPrincipal() who: Principal,
  ): Promise<AnnotateView> {
    // What the body cannot change is refused before it is read.
    this.annotate.checkSaveHistory(query.save_history ?? false, who);
    const form = await this.uploads.receive(request, who, {
      purpose: 'annotate',
      fields: ['name', 'taxon', 'donor_evidence'],
    });
    const name = form.fields['name']?.trim() || form.filename || 'annotation';
    return this.annotate.annotate({
      name: name.slice(0, 200),
      fasta: form.fasta,
      taxon: form.fields['taxon'] ?? null,
      donorEvidence: form.fields['donor_evidence'] ?? null,
      saveHistory: query.save_history ?? false,
      principal: who,
    });
  }
}
