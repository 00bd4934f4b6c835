import { createReadStream } from 'node:fs';
import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { notFound, StackPullsView, StackView } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { StackService } from './stack.service';

@ApiTags('stack')
@Controller('stack')
export class StackController {
  constructor(private readonly stackService: StackService) {}

  @ApiDoc({ summary: 'The software stack: its repositories and the thesis link', ok: StackView })
  @Get()
  @Roles('guest')
  stack(): Promise<StackView> {
    return this.stackService.stack();
  }

  @ApiDoc({
    summary: "Open pull requests of the stack's repositories (cached for 5 minutes)",
    ok: StackPullsView,
  })
  @Get('pulls')
  @Roles('guest')
  pulls(): Promise<StackPullsView> {
    return this.stackService.openPulls();
  }

  @ApiDoc({
    summary: 'The thesis PDF, when the server has one',
    ok: { file: 'application/pdf', example: '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>' },
    problems: [404],
  })
  @Get('thesis.pdf')
  @Roles('guest')
  thesis(): StreamableFile {
    const path = this.stackService.thesisPath();
    if (path === null) throw notFound('Thesis PDF');
    return new StreamableFile(createReadStream(path), { type: 'application/pdf' });
  }
}
