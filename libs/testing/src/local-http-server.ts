import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { freePort } from './free-port';

/** A test's own HTTP server on 127.0.0.1 (a stand-in for a public service), and how to stop it. */
export interface LocalHttpServer {
  url: string;
  stop(): Promise<void>;
}

/** Listens on 127.0.0.1 (`port`, else a free one) with `handler`; `stop` also ends open connections. */
export async function startLocalHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port?: number,
): Promise<LocalHttpServer> {
  const listenOn = port ?? (await freePort());
  const server: Server = createServer(handler);
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(listenOn, '127.0.0.1', ready);
  });
  let stopped = false;
  return {
    url: `http://127.0.0.1:${listenOn}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
