import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SupportCreate } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { CommunityRepository } from '@svc/persistence';
import { Roles, ValidBody } from '@svc/platform';

@ApiTags('community')
@Controller()
export class CommunityController {
  private readonly community: CommunityRepository;

  constructor(@Inject(INFRASTRUCTURE) infra: Infrastructure) {
    this.community = new CommunityRepository(infra.db);
  }

  @Get('support')
  @Roles('guest')
  support() {
    return this.community.support();
  }

  /** A thumbs-up; an empty or blank comment is stored as none. */
  @Post('support')
  @HttpCode(201)
  @Roles('researcher')
  addSupport(@ValidBody() body: SupportCreate) {
    const comment = body.comment?.trim();
    return this.community.addSupport(comment === undefined || comment === '' ? null : comment);
  }

  @Get('showcase')
  @Roles('guest')
  showcase() {
    return this.community.showcase();
  }
}
