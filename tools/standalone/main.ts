import 'reflect-metadata';
import { ConfigError } from '@svc/platform';
import { startStandalone } from './standalone';

// `SVC_MODE=standalone npm start` (or `npm start` with nothing configured) runs this: the whole
// service in one process. Ctrl-C closes every component and the embedded database.
startStandalone().then(
  (standalone) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`standalone: ${signal} received, shutting down\n`);
      standalone.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`standalone: shutdown failed: ${String((error as Error).stack ?? error)}\n`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  },
  (error: unknown) => {
    const message = error instanceof ConfigError ? error.message : String((error as Error).stack ?? error);
    process.stderr.write(`standalone failed to start: ${message}\n`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
