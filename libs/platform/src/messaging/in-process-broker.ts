import { ALL_QUEUES, DEAD_LETTER_QUEUE, JobMessage, OperationMessage } from '@svc/contracts';
import type { Logger } from '../logging/logger';
import { InProcessQueues, QueuedMessage, Settle, Subscription } from './in-process-queues';
import {
  BrokerUnavailableError,
  DeliveryHandler,
  DeliveryOutcome,
  MessageBroker,
  QueueStats,
  assertPublishable,
} from './message-broker';
import { childTraceparent, isTraceparent } from './traceparent';

export interface InProcessBrokerOptions {
  queues: InProcessQueues;
  /** Prepended to every queue name, as in the AMQP path. */
  prefix: string;
  logger: Logger;
}

/**
 * The standalone mode's broker: the AmqpBroker contract over this process's queues. Messages are
 * serialised to JSON bytes exactly as on the wire, so a handler sees the same Delivery either way.
 */
export class InProcessBroker implements MessageBroker {
  private readonly subscriptions: Subscription[] = [];
  private open = true;

  constructor(private readonly options: InProcessBrokerOptions) {
    options.queues.declare(this.queueName(DEAD_LETTER_QUEUE));
    for (const queue of ALL_QUEUES) this.declare(this.queueName(queue));
  }

  queueName(logical: string): string {
    return `${this.options.prefix}${logical}`;
  }

  isConnected(): boolean {
    return this.open;
  }

  async waitUntilReady(): Promise<void> {
    if (!this.open) throw new BrokerUnavailableError('the in-process queues are closed');
  }

  async publishJob(queue: string, message: JobMessage, traceparent?: string | null): Promise<void> {
    assertPublishable('job', queue);
    this.publish(queue, message, traceparent);
  }

  async publishOperation(
    queue: string,
    message: OperationMessage,
    traceparent?: string | null,
  ): Promise<void> {
    assertPublishable('operation', queue);
    this.publish(queue, message, traceparent);
  }

  /** Puts raw bytes on a queue (what a foreign or broken publisher could send). */
  publishRaw(queue: string, content: Buffer): void {
    const name = this.queueName(queue);
    this.declare(name);
    this.options.queues.send(name, { content, headers: {}, replyTo: null, correlationId: null });
  }

  private publish(queue: string, message: object, traceparent?: string | null): void {
    if (!this.open) throw new BrokerUnavailableError('the in-process queues are closed');
    const name = this.queueName(queue);
    this.declare(name);
    this.options.queues.send(name, {
      content: Buffer.from(JSON.stringify(message)),
      headers: { traceparent: childTraceparent(traceparent) },
      replyTo: null,
      correlationId: null,
    });
  }

  async consume(queue: string, handler: DeliveryHandler, prefetch = 1): Promise<() => Promise<void>> {
    const name = this.queueName(queue);
    this.declare(name);
    const subscription = this.options.queues.consume(
      name,
      (message, settle) => void this.dispatch(message, settle, handler),
      prefetch,
    );
    this.subscriptions.push(subscription);
    return async () => subscription.cancel();
  }

  private async dispatch(message: QueuedMessage, settle: Settle, handler: DeliveryHandler): Promise<void> {
    let body: unknown = null;
    let malformed = false;
    try {
      body = JSON.parse(message.content.toString('utf8'));
    } catch {
      malformed = true;
    }
    const header = message.headers['traceparent'];
    let outcome: DeliveryOutcome = 'reject';
    try {
      outcome = await handler({
        body,
        malformed,
        redelivered: message.redelivered,
        traceparent: isTraceparent(header) ? header : null,
      });
    } catch (error) {
      this.options.logger.error('message handler failed', { error: (error as Error).message });
    }
    settle(outcome);
  }

  async queueStats(queues: readonly string[] = ALL_QUEUES): Promise<QueueStats[]> {
    if (!this.open) throw new BrokerUnavailableError('the in-process queues are closed');
    return queues.map((queue) => {
      const stats = this.options.queues.stats(this.queueName(queue));
      return { queue, consumers: stats.consumers, messages_ready: stats.ready };
    });
  }

  async close(): Promise<void> {
    this.open = false;
    for (const subscription of this.subscriptions.splice(0)) subscription.close();
  }

  private declare(name: string): void {
    const deadLetters = this.queueName(DEAD_LETTER_QUEUE);
    this.options.queues.declare(name, { deadLetterQueue: name === deadLetters ? null : deadLetters });
  }
}
