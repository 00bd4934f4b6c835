import { isJobQueue, isOperationQueue, type JobMessage, type OperationMessage } from '@svc/contracts';

export interface Delivery {
  body: unknown;
  /** The raw content could not be parsed as JSON. */
  malformed: boolean;
  redelivered: boolean;
  traceparent: string | null;
}

/**
 * What a handler decided: acknowledge; reject without requeue (the broker dead-letters it); or
 * requeue, only for a delivery that arrived while the worker was shutting down and was not started.
 */
export type DeliveryOutcome = 'ack' | 'reject' | 'requeue';

export type DeliveryHandler = (delivery: Delivery) => Promise<DeliveryOutcome>;

export interface QueueStats {
  queue: string;
  consumers: number;
  messages_ready: number;
}

export class BrokerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerUnavailableError';
  }
}

/** A publish to a queue the service does not own: refused before anything is declared or sent. */
export class UnknownQueueError extends Error {
  constructor(queue: string) {
    super(`'${queue}' is not one of the service's queues`);
    this.name = 'UnknownQueueError';
  }
}

/**
 * Jobs go only to job queues and steps only to operation queues, whatever a stored row or a message
 * says: a queue is never declared from request input, and the RPC and dead-letter queues are never
 * written to by a publish.
 */
export function assertPublishable(kind: 'job' | 'operation', queue: string): void {
  if (kind === 'job' ? !isJobQueue(queue) : !isOperationQueue(queue)) throw new UnknownQueueError(queue);
}

/**
 * The queues as the service uses them: durable queues whose rejected messages go to the dead-letter
 * queue, persistent JSON messages, consumers with a prefetch. RabbitMQ (AmqpBroker) in the services
 * mode; the in-process queues (InProcessBroker) in the standalone mode.
 */
export interface MessageBroker {
  queueName(logical: string): string;
  isConnected(): boolean;
  /** Resolves once publishing works; rejects after the timeout. */
  waitUntilReady(timeoutMs: number): Promise<void>;
  publishJob(queue: string, message: JobMessage, traceparent?: string | null): Promise<void>;
  publishOperation(queue: string, message: OperationMessage, traceparent?: string | null): Promise<void>;
  /** Consumes one queue with the given prefetch; returns a function that stops consuming. */
  consume(queue: string, handler: DeliveryHandler, prefetch?: number): Promise<() => Promise<void>>;
  queueStats(queues?: readonly string[]): Promise<QueueStats[]>;
  close(): Promise<void>;
}
