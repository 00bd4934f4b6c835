import type { LoggerService } from '@nestjs/common';
import { Logger } from './logger';

/** Lets Nest's own messages go through the service logger. */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}
  /** Nest's routine messages (module wiring, route mapping) are debug detail for this service. */
  log(message: unknown, context?: string): void {
    this.logger.debug(String(message), context ? { context } : {});
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error(String(message), { ...(context ? { context } : {}), ...(trace ? { trace } : {}) });
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn(String(message), context ? { context } : {});
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug(String(message), context ? { context } : {});
  }
  verbose(message: unknown, context?: string): void {
    this.logger.debug(String(message), context ? { context } : {});
  }
}
