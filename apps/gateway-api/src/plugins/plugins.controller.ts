import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BUILT_IN_ANNOTATION_SOURCES,
  BUILT_IN_EMBEDDING_BACKENDS,
  BUILT_IN_RUNNERS,
  PLUGIN_GROUPS,
  PluginListView,
} from '@svc/contracts';
import { Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { PluginRegistryService } from './plugin-registry.service';

@ApiTags('plugins')
@Controller()
export class PluginsController {
  constructor(private readonly registry: PluginRegistryService) {}

  @ApiDoc({ summary: 'Experiment runners: built-in and installed', ok: PluginListView })
  @Get('runners')
  @Roles('guest')
  runners(): Promise<PluginListView> {
    return this.registry.list(PLUGIN_GROUPS.runners, BUILT_IN_RUNNERS);
  }

  @ApiDoc({ summary: 'Annotation sources: built-in and installed', ok: PluginListView })
  @Get('annotation-sources')
  @Roles('guest')
  annotationSources(): Promise<PluginListView> {
    return this.registry.list(PLUGIN_GROUPS.annotationSources, BUILT_IN_ANNOTATION_SOURCES);
  }

  @ApiDoc({ summary: 'Embedding backends: built-in and installed', ok: PluginListView })
  @Get('embedding-backends')
  @Roles('guest')
  embeddingBackends(): Promise<PluginListView> {
    return this.registry.list(PLUGIN_GROUPS.embeddingBackends, BUILT_IN_EMBEDDING_BACKENDS);
  }
}
