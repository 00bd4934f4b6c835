import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  BUILT_IN_ANNOTATION_SOURCES,
  BUILT_IN_EMBEDDING_BACKENDS,
  BUILT_IN_RUNNERS,
  PLUGIN_GROUPS,
  PluginInfo,
  PluginListResponse,
} from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/jobs';
import { discoverPlugins, Roles } from '@svc/platform';

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

  @Get('runners')
  @Roles('guest')
  runners() {
    return this.registry.list(PLUGIN_GROUPS.runners, BUILT_IN_RUNNERS);
  }

  @Get('annotation-sources')
  @Roles('guest')
  annotationSources() {
    return this.registry.list(PLUGIN_GROUPS.annotationSources, BUILT_IN_ANNOTATION_SOURCES);
  }

  @Get('embedding-backends')
  @Roles('guest')
  embeddingBackends() {
    return this.registry.list(PLUGIN_GROUPS.embeddingBackends, BUILT_IN_EMBEDDING_BACKENDS);
  }
}
