import './tracing';
import 'reflect-metadata';
import { ConfigError, shutdownProcessTracing, startupLogFormat, writeProcessLine } from '@svc/platform';
import { DataFolderInUseError } from './data-lock';
import { startStandalone } from './standalone';

// `SVC_MODE=standalone npm start` (or `npm start` with nothing configured) runs this: the whole
// service in one process. Ctrl-C closes every component and the embedded database.
startStandalone().then(
  (standalone) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      const format = standalone.config.logFormat;
      writeProcessLine('standalone', 'info', `${signal} received, shutting down`, format);
      standalone
        .close()
        .then(() => shutdownProcessTracing())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            const message = `shutdown failed: ${String((error as Error).stack ?? error)}`;
            writeProcessLine('standalone', 'error', message, format);
            process.exit(1);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  },
  (error: unknown) => {
    const isExplained = error instanceof ConfigError || error instanceof DataFolderInUseError;
    const message = isExplained ? error.message : String((error as Error).stack ?? error);
    writeProcessLine('standalone', 'error', `failed to start: ${message}`, startupLogFormat());
    // 78 tells npm start not to restart: another try meets the same settings or the same open folder.
    process.exit(isExplained ? 78 : 1);
  },
);
