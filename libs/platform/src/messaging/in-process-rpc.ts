import { randomUUID } from 'node:crypto';
import {
  BaseRpcContext,
  ClientProxy,
  CustomTransportStrategy,
  ReadPacket,
  Server,
  WritePacket,
} from '@nestjs/microservices';
import { InProcessQueues, QueuedMessage, Settle, Subscription } from './in-process-queues';

const NO_HANDLER = 'There is no matching message handler defined in the remote service.';

interface RequestPacket {
  pattern: unknown;
  data: unknown;
  id?: string;
}

function patternKey(pattern: unknown): string {
  return typeof pattern === 'string' ? pattern : JSON.stringify(pattern);
}

/**
 * Nest microservice transport over this process's queues: the request/reply that ServerRMQ does over
 * AMQP. Requests wait in the queue until the server consumes them, the prefetch bounds the requests
 * handled at once, and each answer goes to the requester's reply queue under its correlation id.
 */
export class InProcessRpcServer extends Server implements CustomTransportStrategy {
  private subscription: Subscription | null = null;

  constructor(
    private readonly queues: InProcessQueues,
    private readonly queue: string,
    private readonly prefetch: number,
  ) {
    super();
  }

  listen(callback: () => void): void {
    this.queues.declare(this.queue);
    this.subscription = this.queues.consume(
      this.queue,
      (message, settle) => void this.handle(message, settle),
      this.prefetch,
    );
    callback();
  }

  close(): void {
    this.subscription?.close();
    this.subscription = null;
  }

  on(): void {
    // The in-process queues raise no transport events.
  }

  unwrap<T>(): T {
    return this.queues as T;
  }

  private async handle(message: QueuedMessage, settle: Settle): Promise<void> {
    let packet: RequestPacket;
    try {
      packet = JSON.parse(message.content.toString('utf8')) as RequestPacket;
    } catch {
      settle('reject');
      return;
    }
    const respond = (reply: WritePacket): void => {
      if (message.replyTo === null) return;
      this.queues.send(message.replyTo, {
        content: Buffer.from(JSON.stringify({ ...reply, id: message.correlationId })),
        headers: {},
        replyTo: null,
        correlationId: message.correlationId,
      });
    };
    const handler = this.getHandlerByPattern(patternKey(packet.pattern));
    if (handler === null) {
      respond({ err: NO_HANDLER, isDisposed: true });
      settle('ack');
      return;
    }
    try {
      const response$ = this.transformToObservable(await handler(packet.data, new BaseRpcContext([])));
      if (message.replyTo !== null) this.send(response$, respond);
    } catch (error) {
      respond({ err: (error as Error).message, isDisposed: true });
    }
    settle('ack');
  }
}

/** The client side of InProcessRpcServer: ClientRMQ's request/reply with an exclusive reply queue. */
export class InProcessRpcClient extends ClientProxy {
  private readonly replyQueue = `amq.gen-${randomUUID()}`;
  private readonly pending = new Map<string, (packet: WritePacket) => void>();
  private subscription: Subscription | null = null;

  constructor(
    private readonly queues: InProcessQueues,
    private readonly queue: string,
  ) {
    super();
  }

  async connect(): Promise<void> {
    if (this.subscription !== null) return;
    this.queues.declare(this.replyQueue);
    this.subscription = this.queues.consume(
      this.replyQueue,
      (message, settle) => {
        settle('ack');
        this.onReply(message);
      },
      Number.MAX_SAFE_INTEGER,
    );
  }

  close(): void {
    this.subscription?.close();
    this.subscription = null;
  }

  unwrap<T>(): T {
    return this.queues as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const correlationId = randomUUID();
    this.pending.set(correlationId, callback);
    const request: RequestPacket = { pattern: packet.pattern, data: packet.data, id: correlationId };
    this.queues.send(this.queue, {
      content: Buffer.from(JSON.stringify(request)),
      headers: {},
      replyTo: this.replyQueue,
      correlationId,
    });
    return () => this.pending.delete(correlationId);
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const event: RequestPacket = { pattern: packet.pattern, data: packet.data };
    this.queues.send(this.queue, {
      content: Buffer.from(JSON.stringify(event)),
      headers: {},
      replyTo: null,
      correlationId: null,
    });
    return undefined as T;
  }

  private onReply(message: QueuedMessage): void {
    const callback = message.correlationId === null ? undefined : this.pending.get(message.correlationId);
    if (callback === undefined) return;
    let reply: { err?: unknown; response?: unknown; isDisposed?: boolean };
    try {
      reply = JSON.parse(message.content.toString('utf8')) as typeof reply;
    } catch {
      callback({ err: 'malformed reply', isDisposed: true });
      return;
    }
    if (reply.isDisposed || reply.err)
      callback({ err: reply.err, response: reply.response, isDisposed: true });
    else callback({ err: reply.err, response: reply.response });
  }
}
