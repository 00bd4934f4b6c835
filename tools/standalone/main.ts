import './tracing';
import 'reflect-metadata';
import { runProcessMain } from '@svc/platform';
import { DataFolderInUseError } from './data-lock';
import { startStandalone } from './standalone';

// `SVC_MODE=standalone npm start` (or `npm start` with nothing configured) runs this: the whole
// service in one process. Ctrl-C closes every component and the embedded database. A data folder
// another process holds exits 78, as bad settings do: npm start does not restart, since another try
// meets the same open folder.
runProcessMain(
  'standalone',
  async () => {
    const standalone = await startStandalone();
    return { close: () => standalone.close(), logFormat: standalone.config.logFormat };
  },
  { explained: (error) => error instanceof DataFolderInUseError },
);
