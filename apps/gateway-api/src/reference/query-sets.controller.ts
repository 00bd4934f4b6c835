import { Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  MineQuery,
  QuerySetCreatedView,
  QuerySetDeletionView,
  QuerySetDetailView,
  QuerySetView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidQuery } from '@svc/platform';
import { viewerOf } from '../common/viewer';
import { ApiDoc } from '../http/api-doc';
import { MultipartBody } from '../http/multipart-body';
import { FastaUploadPolicy } from './fasta-upload-policy';
import { KNOWN_TERMS_HEADER, ReferenceService, TAXON_FIELD } from './reference.service';

@ApiTags('query-sets')
@Controller('query-sets')
export class QuerySetsController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly uploads: FastaUploadPolicy,
  ) {}

  /**
   * multipart/form-data: `file` (FASTA, up to SVC_FASTA_UPLOAD_LIMIT_BYTES), `name`, `description`,
   * `taxon` (the NCBI taxonomy id of the records without OX=). The set joins the caller's history.
   */
  @ApiDoc({ summary: 'Upload a FASTA file as a query set', ok: QuerySetCreatedView })
  @Post()
  @HttpCode(201)
  @Roles('researcher')
  @MultipartBody({
    files: {
      file:
        'FASTA file of protein sequences (up to SVC_FASTA_UPLOAD_LIMIT_BYTES; records that look like DNA or RNA are refused with 422). ' +
        KNOWN_TERMS_HEADER,
    },
    fields: {
      name: 'Query set name (default: the file name)',
      description: 'Free text',
      taxon: { description: TAXON_FIELD, example: '9606' },
    },
    required: ['file'],
  })
  async upload(@Req() request: FastifyRequest, @CurrentPrincipal() who: Principal) {
    const form = await this.uploads.receive(request, who, {
      purpose: 'query_set',
      fields: ['name', 'description', 'taxon'],
    });
    const name = form.fields['name']?.trim() || form.filename || 'query set';
    return this.reference.uploadQuerySet({
      name: name.slice(0, 200),
      description: form.fields['description']?.trim() || null,
      fasta: form.fasta,
      taxon: form.fields['taxon'] ?? null,
      ownership: this.reference.ownershipFor(who),
    });
  }

  @ApiDoc({ summary: "List public query sets and the caller's own, newest first", ok: [QuerySetView] })
  @Get()
  @Roles('guest')
  list(@ValidQuery() query: MineQuery, @CurrentPrincipal() who: Principal) {
    return this.reference.listQuerySets(viewerOf(who), query.mine ?? false);
  }

  @ApiDoc({ summary: 'One query set with its entries', ok: QuerySetDetailView })
  @Get(':id')
  @Roles('guest')
  detail(@Param('id') id: string, @CurrentPrincipal() who: Principal) {
    return this.reference.querySet(id, viewerOf(who));
  }

  @ApiDoc({ summary: 'Delete a query set and its entries', ok: QuerySetDeletionView })
  @Delete(':id')
  @Roles('researcher')
  remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<QuerySetDeletionView> {
    return this.reference.deleteQuerySet(id, viewerOf(who));
  }
}
