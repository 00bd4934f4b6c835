import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BUILT_IN_ANNOTATION_SOURCES,
  BUILT_IN_EMBEDDING_BACKENDS,
  BUILT_IN_RUNNERS,
  PLUGIN_GROUPS,
  PluginInfo,
  PluginListResponse,
  PluginListView,
} from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { discoverPlugins, Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';

/** Built-in plugins plus those installed packages declare (re-scanned on every call). */
@Injectable()
export class PluginRegistryService {
  constructor(@Inject(INFRASTRUCTURE) private readonly infra: Infrastructure) {}

  async list(group: string, builtIn: readonly PluginInfo[]): Promise<PluginListResponse> {
    const discovered = await discoverPlugins(this.infra.config.pluginRoot ?? process.cwd(), group);
    const names = new Set(builtIn.map((p) => p.name));
    return { group, plugins: [...builtIn, ...discovered.filter((p) => !names.has(p.name))] };
  }
}

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
