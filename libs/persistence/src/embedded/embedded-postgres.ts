import { mkdirSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

export interface EmbeddedPostgresOptions {
  /** Folder PGlite keeps its cluster in; created (initdb) on first use, reopened afterwards. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * Called when a connection has waited this long for the session (default 30 s), once per wait:
   * the usual cause is a transaction that waits for another connection, which never ends here.
   */
  onStall?: (waitedSeconds: number) => void;
  stallSeconds?: number;
}

export interface EmbeddedPostgres {
  /** A postgres:// URL the unchanged pg driver (and so TypeORM) connects to. */
  url: string;
  port: number;
  dataDir: string;
  /** Seconds PGlite took to open the data folder (initdb included when it was new). */
  openSeconds: number;
  close(): Promise<void>;
}

/**
 * PostgreSQL in WebAssembly (PGlite) served over the Postgres wire protocol on 127.0.0.1, so every
 * process component keeps its pg pool and TypeORM DataSource exactly as with a real server.
 *
 * PGlite is one backend with one session. Many client connections share it safely only when one
 * connection at a time owns it from its first message until the end of a protocol exchange (Sync or
 * a simple Query) that leaves no transaction open: an extended-protocol Parse/Bind/Execute sequence or
 * a BEGIN..COMMIT block of one client is never interleaved with another client's messages. The
 * price is that an open transaction blocks every other connection until it ends.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  mkdirSync(options.dataDir, { recursive: true });
  const started = process.hrtime.bigint();
  // PGlite ships as an ES module; a dynamic import keeps this CommonJS build loading it lazily, so
  // processes that talk to a real server never load the WebAssembly module.
  const { PGlite: PGliteClass } = await import('@electric-sql/pglite');
  const db = await PGliteClass.create(options.dataDir);
  const openSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const gate = new SessionGate(options.onStall ?? null, options.stallSeconds ?? 30);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    new WireConnection(socket, db, gate).attach();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    dataDir: options.dataDir,
    openSeconds,
    async close() {
      await closeServer(server, sockets);
      await gate.run(async () => {
        await db.close();
      });
    },
  };
}

function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
}

/** A FIFO mutex over the single PGlite session. */
class SessionGate {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly onStall: ((waitedSeconds: number) => void) | null,
    private readonly stallSeconds: number,
  ) {}

  /** Waits for the session, then holds it until `release` is called. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    if (this.onStall !== null) {
      const onStall = this.onStall;
      const timer = setTimeout(() => onStall(this.stallSeconds), this.stallSeconds * 1000);
      timer.unref();
      void ready.then(() => clearTimeout(timer));
    }
    return ready;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

/** One client connection: frames its messages and feeds them to PGlite while it owns the session. */
class WireConnection {
  private buffer = Buffer.alloc(0);
  private started = false;
  private release: (() => void) | null = null;
  private pumping = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly gate: SessionGate,
  ) {}

  attach(): void {
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      void this.pump();
    });
    this.socket.on('error', () => undefined);
    this.socket.once('close', () => {
      this.closed = true;
      if (!this.pumping) void this.abandon();
    });
  }

  /** Processes every complete message in the buffer, in order. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const message = this.nextMessage();
        if (message === null) break;
        await this.handle(message);
      }
    } catch {
      this.socket.destroy();
    } finally {
      this.pumping = false;
      if (this.closed) await this.abandon();
    }
  }

  private nextMessage(): { type: string | null; bytes: Buffer } | null {
    if (!this.started) {
      if (this.buffer.length < 8) return null;
      const length = this.buffer.readInt32BE(0);
      if (this.buffer.length < length) return null;
      const bytes = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      return { type: null, bytes };
    }
    if (this.buffer.length < 5) return null;
    const length = 1 + this.buffer.readInt32BE(1);
    if (this.buffer.length < length) return null;
    const bytes = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return { type: String.fromCharCode(bytes[0]!), bytes };
  }

  private async handle(message: { type: string | null; bytes: Buffer }): Promise<void> {
    if (message.type === null) {
      const code = message.bytes.readInt32BE(4);
      if (code === SSL_REQUEST) {
        this.socket.write('N');
        return;
      }
      if (code === CANCEL_REQUEST) {
        this.socket.end();
        return;
      }
      if (code !== PROTOCOL_3) {
        this.socket.destroy();
        return;
      }
      this.started = true;
      await this.exchange(message.bytes, true);
      return;
    }
    if (message.type === 'X') {
      // Terminate belongs to this connection, not to the shared backend session.
      await this.abandon();
      this.socket.end();
      return;
    }
    await this.exchange(message.bytes, message.type === 'S' || message.type === 'Q');
  }

  /** Runs one message with the session held; lets go of it at the end of an exchange outside a transaction. */
  private async exchange(bytes: Buffer, endsExchange: boolean): Promise<void> {
    this.release ??= await this.gate.acquire();
    if (this.closed) {
      await this.abandon();
      return;
    }
    await this.db.execProtocolRawStream(new Uint8Array(bytes), {
      syncToFs: endsExchange,
      onRawData: (data: Uint8Array) => {
        if (!this.socket.destroyed) this.socket.write(Buffer.from(data));
      },
    });
    if (endsExchange && !this.db.isInTransaction()) this.letGo();
  }

  /** The client went away: roll back what it left open and hand the session on. */
  private async abandon(): Promise<void> {
    if (this.release === null) return;
    try {
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } finally {
      this.letGo();
    }
  }

  private letGo(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }
}
