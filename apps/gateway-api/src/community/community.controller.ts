import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ShowcaseView, SupportCreate, SupportEntryView, SupportSummaryView } from '@svc/contracts';
import { CommunityRepository } from '@svc/persistence';
import { Roles, ValidBody } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';

@ApiTags('community')
@Controller()
export class CommunityController {
  constructor(private readonly community: CommunityRepository) {}

  @ApiDoc({ summary: 'How many thumbs-up, and the newest comments', ok: SupportSummaryView })
  @Get('support')
  @Roles('guest')
  support() {
    return this.community.support();
  }

  /** A thumbs-up; an empty or blank comment is stored as none. */
  @ApiDoc({ summary: 'Give a thumbs-up, with an optional comment', ok: SupportEntryView })
  @Post('support')
  @HttpCode(201)
  @Roles('researcher')
  addSupport(@ValidBody() body: SupportCreate) {
    const comment = body.comment?.trim();
    return this.community.addSupport(comment === undefined || comment === '' ? null : comment);
  }

  @ApiDoc({
    summary: 'What the platform holds, and the best stored result of each (category, aspect)',
    ok: ShowcaseView,
  })
  @Get('showcase')
  @Roles('guest')
  showcase() {
    return this.community.showcase();
  }
}
