import { createReadStream } from 'node:fs';
import { Controller, Get, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { notFound } from '@svc/contracts';
import { Roles } from '@svc/platform';
import { StackService } from './stack.service';

@ApiTags('stack')
@Controller('stack')
export class StackController {
  constructor(private readonly stackService: StackService) {}

  @Get()
  @Roles('guest')
  stack() {
    return this.stackService.stack();
  }

  @Get('pulls')
  @Roles('guest')
  pulls() {
    return this.stackService.openPulls();
  }

  @Get('thesis.pdf')
  @Roles('guest')
  thesis(): StreamableFile {
    const path = this.stackService.thesisPath();
    if (path === null) throw notFound('Thesis PDF');
    return new StreamableFile(createReadStream(path), { type: 'application/pdf' });
  }
}
