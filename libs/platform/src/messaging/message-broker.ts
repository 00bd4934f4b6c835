import type { JobMessage, OperationMessage } from '@svc/contracts';

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
