import { Module } from '@nestjs/common';
import { PluginRegistryService } from './plugin-registry.service';
import { PluginsController } from './plugins.controller';

@Module({
  imports: [],
  controllers: [PluginsController],
  providers: [PluginRegistryService],
  exports: [],
})
export class PluginsModule {}
