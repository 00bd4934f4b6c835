import type { DeliveryOutcome } from './message-broker';

/** A message as it sits in a queue: raw bytes and the AMQP properties the service uses. */
export interface QueuedMessage {
  content: Buffer;
  headers: Record<string, unknown>;
  /** Request/reply: the queue the answer goes to, and the id that pairs it with its request. */
  replyTo: string | null;
  correlationId: string | null;
  redelivered: boolean;
}

export type Settle = (outcome: DeliveryOutcome) => void;
export type RawHandler = (message: QueuedMessage, settle: Settle) => void;

export interface Subscription {
  /** basic.cancel: no new deliveries; the ones in flight are still settled by their handlers. */
  cancel(): void;
  /** Channel close: as cancel, and every delivery not yet settled goes back to its queue (redelivered). */
  close(): void;
}

interface Consumer {
  queue: QueueState;
  handler: RawHandler;
  prefetch: number;
  active: boolean;
  unacked: Set<QueuedMessage>;
}

interface QueueState {
  name: string;
  ready: QueuedMessage[];
  consumers: Consumer[];
  /** Round-robin position among the consumers. */
  next: number;
  deadLetterQueue: string | null;
}

/**
 * Queues held in this process with the semantics the service relies on from RabbitMQ: a message goes
 * to one consumer of its queue (round robin), a consumer never holds more unsettled deliveries than
 * its prefetch, a rejection without requeue moves the message to the queue's dead-letter queue, a
 * requeue or a closed consumer puts it back at the head marked redelivered, and messages published
 * while nobody consumes wait in the queue. Nothing survives the process: job rows in the database are
 * the durable record, and the reaper publishes again what a restart lost.
 */
export class InProcessQueues {
  private readonly queues = new Map<string, QueueState>();

  /** Creates the queue if missing; a later declaration keeps the first dead-letter setting, as assertQueue does. */
  declare(name: string, options: { deadLetterQueue?: string | null } = {}): void {
    this.state(name, options.deadLetterQueue ?? null);
  }

  send(name: string, message: Omit<QueuedMessage, 'redelivered'>): void {
    const queue = this.state(name, null);
    queue.ready.push({ ...message, redelivered: false });
    this.drain(queue);
  }

  consume(name: string, handler: RawHandler, prefetch: number): Subscription {
    const queue = this.state(name, null);
    const consumer: Consumer = {
      queue,
      handler,
      prefetch: Math.max(1, prefetch),
      active: true,
      unacked: new Set(),
    };
    queue.consumers.push(consumer);
    this.drain(queue);
    const cancel = (): void => {
      consumer.active = false;
      queue.consumers = queue.consumers.filter((c) => c !== consumer);
    };
    return {
      cancel,
      close: () => {
        cancel();
        const returned = [...consumer.unacked];
        consumer.unacked.clear();
        queue.ready.unshift(...returned.map((m) => ({ ...m, redelivered: true })));
        this.drain(queue);
      },
    };
  }

  /** basic.get with automatic acknowledgement: the oldest ready message, or null. */
  get(name: string): QueuedMessage | null {
    return this.queues.get(name)?.ready.shift() ?? null;
  }

  stats(name: string): { consumers: number; ready: number } {
    const queue = this.queues.get(name);
    return { consumers: queue?.consumers.length ?? 0, ready: queue?.ready.length ?? 0 };
  }

  private state(name: string, deadLetterQueue: string | null): QueueState {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = { name, ready: [], consumers: [], next: 0, deadLetterQueue };
      this.queues.set(name, queue);
    } else if (queue.deadLetterQueue === null && deadLetterQueue !== null) {
      queue.deadLetterQueue = deadLetterQueue;
    }
    return queue;
  }

  private drain(queue: QueueState): void {
    while (queue.ready.length > 0) {
      const consumer = this.nextConsumer(queue);
      if (consumer === null) return;
      const message = queue.ready.shift()!;
      consumer.unacked.add(message);
      let settled = false;
      const settle: Settle = (outcome) => {
        // A delivery already returned by a closed consumer, or settled twice, changes nothing.
        if (settled || !consumer.unacked.delete(message)) return;
        settled = true;
        if (outcome === 'requeue') queue.ready.unshift({ ...message, redelivered: true });
        else if (outcome === 'reject' && queue.deadLetterQueue !== null)
          this.send(queue.deadLetterQueue, { ...message });
        this.drain(queue);
      };
      // Deliveries arrive asynchronously, as from a socket, never inside the publisher's call.
      setImmediate(() => consumer.handler(message, settle));
    }
  }

  private nextConsumer(queue: QueueState): Consumer | null {
    const count = queue.consumers.length;
    for (let i = 0; i < count; i += 1) {
      const index = (queue.next + i) % count;
      const consumer = queue.consumers[index]!;
      if (consumer.active && consumer.unacked.size < consumer.prefetch) {
        queue.next = (index + 1) % count;
        return consumer;
      }
    }
    return null;
  }
}

let shared: InProcessQueues | null = null;

/** The queues of this process, shared by every component the standalone mode runs in it. */
export function processQueues(): InProcessQueues {
  shared ??= new InProcessQueues();
  return shared;
}
