import { Inject, Injectable } from '@nestjs/common';
import { PluginInfo, PluginListResponse } from '@svc/contracts';
import { INFRASTRUCTURE, Infrastructure } from '@svc/bootstrap';
import { discoverPlugins } from '@svc/platform';

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
