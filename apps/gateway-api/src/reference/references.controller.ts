import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DomainError,
  hasRoleAtLeast,
  INSTALL_REFERENCE,
  InstallReferencePayload,
  QueuedJobView,
  ReferenceEntryView,
} from '@svc/contracts';
import { REFERENCE_CATALOG, referenceSpec, type ReferenceBundleSpec } from '@svc/domain';
import { InstalledReference, ReferenceBundleRepository } from '@svc/persistence';
import { CurrentPrincipal, Principal, Roles, ValidBody } from '@svc/platform';
import { ApiDoc, QueueDoc } from '../http/api-doc';
import { JobsService } from '../jobs/jobs.service';

/**
 * Named references (docs/reference.md): the catalog, what is installed of it, and the install job. A
 * mirror and the files' read locations are shown to operators only; everyone sees the canonical
 * sources, the digests and what was loaded.
 */
@ApiTags('references')
@Controller('references')
export class ReferencesController {
  constructor(
    private readonly bundles: ReferenceBundleRepository,
    private readonly jobs: JobsService,
  ) {}

  @ApiDoc({ summary: 'The reference catalog with what is installed of it', ok: [ReferenceEntryView] })
  @Get()
  @Roles('guest')
  async list(@CurrentPrincipal() who: Principal | undefined): Promise<ReferenceEntryView[]> {
    const installed = await this.bundles.list();
    const current = await this.bundles.newest();
    return REFERENCE_CATALOG.map((spec) => entryView(spec, installed, current, who));
  }

  @ApiDoc({
    summary: 'One reference of the catalog and its installs',
    ok: ReferenceEntryView,
    problems: [404],
  })
  @Get(':name')
  @Roles('guest')
  async one(
    @Param('name') name: string,
    @CurrentPrincipal() who: Principal | undefined,
  ): Promise<ReferenceEntryView> {
    const spec = referenceSpec(name);
    if (spec === null) throw new DomainError('not_found', 'Reference not found');
    return entryView(spec, await this.bundles.list(), await this.bundles.newest(), who);
  }

  @QueueDoc(
    'Queue install_reference: stage, check and load a named reference (GO release, annotations, sequences)',
  )
  @Post('install')
  @HttpCode(201)
  @Roles('operator')
  install(
    @ValidBody() body: InstallReferencePayload,
    @CurrentPrincipal() who: Principal,
  ): Promise<QueuedJobView> {
    if (referenceSpec(body.name) === null)
      throw new DomainError(
        'not_found',
        `Reference not found: ${body.name} is not in the catalog (${REFERENCE_CATALOG.map((s) => s.name).join(', ')})`,
      );
    return this.jobs.dispatch(INSTALL_REFERENCE, body, who);
  }
}

function entryView(
  spec: ReferenceBundleSpec,
  installed: InstalledReference[],
  current: InstalledReference | null,
  who: Principal | undefined,
): ReferenceEntryView {
  const staff = who !== undefined && hasRoleAtLeast(who.role, 'operator');
  const mine = installed.filter((i) => i.name === spec.name);
  return {
    name: spec.name,
    description: spec.description,
    taxon: spec.taxon,
    donor_evidence: spec.donorEvidence,
    files: spec.files.map((f) => ({
      role: f.role,
      url: f.url,
      mirror_path: f.mirrorPath,
      sha256: f.sha256 ?? null,
    })),
    installed: mine.map((i) => ({
      ...i,
      mirror: staff ? i.mirror : null,
      files: i.files.map((f) => ({
        role: f.role,
        url: spec.files.find((s) => s.role === f.role)?.url ?? '',
        source: staff ? f.source : null,
        sha256: f.sha256,
        bytes: f.bytes,
        checked: f.checked,
      })),
    })),
    is_default: current !== null && current.name === spec.name,
  };
}
