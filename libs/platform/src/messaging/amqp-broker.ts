import amqp, { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  ALL_QUEUES,
  DEAD_LETTER_EXCHANGE,
  DEAD_LETTER_QUEUE,
  JobMessage,
  OperationMessage,
} from '@svc/contracts';
import { Logger } from '../logging/logger';
import { messageTracing } from '../tracing/message-tracing';
import {
  BrokerUnavailableError,
  DeliveryHandler,
  DeliveryOutcome,
  MessageBroker,
  QueueStats,
  assertPublishable,
} from './message-broker';
import { isTraceparent } from './traceparent';

export interface BrokerOptions {
  url: string;
  /** Prepended to every queue and exchange name (fresh names per test run; empty in production). */
  prefix: string;
  publishTimeoutMs: number;
  logger: Logger;
  /** Connection name shown by the broker's management tools. */
  connectionName: string;
}

/**
 * The service's view of RabbitMQ: durable queues with a dead-letter exchange, persistent JSON
 * messages published with confirms, consumers with prefetch and no requeue on failure. Reconnects
 * on its own (amqp-connection-manager) and re-establishes topology and consumers after a reconnect.
 */
export class AmqpBroker implements MessageBroker {
  private readonly connection: AmqpConnectionManager;
  private readonly publisher: ChannelWrapper;
  private readonly consumers: ChannelWrapper[] = [];
  private readonly declared = new Set<string>();

  constructor(private readonly options: BrokerOptions) {
    this.connection = amqp.connect([options.url], {
      heartbeatIntervalInSeconds: 10,
      reconnectTimeInSeconds: 1,
      connectionOptions: { clientProperties: { connection_name: options.connectionName } },
    });
    this.connection.on('connect', () => options.logger.info('broker connected'));
    this.connection.on('disconnect', ({ err }) =>
      options.logger.warn('broker disconnected', { error: err?.message ?? null }),
    );
    this.connection.on('connectFailed', ({ err }) =>
      options.logger.warn('broker connection failed', { error: err?.message ?? null }),
    );
    this.publisher = this.connection.createChannel({
      json: false,
      confirm: true,
      publishTimeout: options.publishTimeoutMs,
      setup: (channel: Channel) => this.declareTopology(channel),
    });
    this.watch(this.publisher, 'publisher');
  }

  /** A channel's 'error' event without a listener would crash the process; log it instead. */
  private watch(channel: ChannelWrapper, role: string): void {
    channel.on('error', (error: Error) =>
      this.options.logger.warn('broker channel error', { role, error: error.message }),
    );
  }

  queueName(logical: string): string {
    return `${this.options.prefix}${logical}`;
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  /** Resolves once the publisher channel (and so the topology) is ready; rejects after the timeout. */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    await withTimeout(this.publisher.waitForConnect(), timeoutMs, 'broker not reachable');
  }

  async publishJob(queue: string, message: JobMessage, traceparent?: string | null): Promise<void> {
    assertPublishable('job', queue);
    await this.publish(queue, message, traceparent);
  }

  async publishOperation(
    queue: string,
    message: OperationMessage,
    traceparent?: string | null,
  ): Promise<void> {
    assertPublishable('operation', queue);
    await this.publish(queue, message, traceparent);
  }

  /** Publishes a persistent JSON message and waits for the broker's confirm. */
  private async publish(queue: string, message: object, traceparent?: string | null): Promise<void> {
    if (!this.isConnected()) throw new BrokerUnavailableError('the message broker is not reachable');
    const name = this.queueName(queue);
    if (!this.declared.has(name)) {
      await this.publisher.addSetup((channel: Channel) => this.declareQueue(channel, name));
    }
    // The span is opened here, in the caller's context: amqp-connection-manager may send the message
    // later from its own queue, where the request's or job's context is gone.
    await messageTracing().producer(name, traceparent, async (header) => {
      try {
        await this.publisher.sendToQueue(name, Buffer.from(JSON.stringify(message)), {
          persistent: true,
          contentType: 'application/json',
          headers: { traceparent: header },
        });
      } catch (error) {
        throw new BrokerUnavailableError(`publish to ${name} was not confirmed: ${(error as Error).message}`);
      }
    });
  }

  /**
   * Consumes one queue with the given prefetch; returns a function that stops consuming. Each message
   * is settled on the very channel that delivered it: after a reconnect the broker has already
   * requeued the old channel's unacknowledged messages, and acknowledging an old delivery tag on the
   * new channel would make the broker close that channel for good.
   */
  async consume(queue: string, handler: DeliveryHandler, prefetch = 1): Promise<() => Promise<void>> {
    const name = this.queueName(queue);
    let stopped = false;
    let current: { channel: Channel; consumerTag: string } | null = null;
    const wrapper = this.connection.createChannel({
      json: false,
      confirm: false,
      setup: async (channel: Channel) => {
        await this.declareTopology(channel);
        if (stopped) return;
        await channel.prefetch(prefetch);
        const { consumerTag } = await channel.consume(
          name,
          (msg) => {
            if (msg !== null) void this.dispatch(name, channel, msg, handler);
          },
          { noAck: false },
        );
        current = { channel, consumerTag };
      },
    });
    this.consumers.push(wrapper);
    this.watch(wrapper, `consumer ${name}`);
    // Consuming starts in the setup, now if connected or on the first connect.
    return async () => {
      stopped = true;
      if (current !== null) await current.channel.cancel(current.consumerTag).catch(() => undefined);
    };
  }

  private async dispatch(
    queue: string,
    channel: Channel,
    msg: ConsumeMessage,
    handler: DeliveryHandler,
  ): Promise<void> {
    let body: unknown = null;
    let malformed = false;
    try {
      body = JSON.parse(msg.content.toString('utf8'));
    } catch {
      malformed = true;
    }
    const header: unknown = msg.properties.headers?.['traceparent'];
    const traceparent = isTraceparent(header) ? header : null;
    let outcome: DeliveryOutcome = 'reject';
    try {
      outcome = await messageTracing().consumer(queue, traceparent, () =>
        handler({ body, malformed, redelivered: msg.fields.redelivered, traceparent }),
      );
    } catch (error) {
      this.options.logger.error('message handler failed', { error: (error as Error).message });
    }
    try {
      if (outcome === 'ack') channel.ack(msg);
      else channel.nack(msg, false, outcome === 'requeue');
    } catch (error) {
      // The channel closed under us; the broker redelivers the unacknowledged message.
      this.options.logger.warn('could not settle message', { error: (error as Error).message });
    }
  }

  async queueStats(queues: readonly string[] = ALL_QUEUES): Promise<QueueStats[]> {
    if (!this.isConnected()) throw new BrokerUnavailableError('the message broker is not reachable');
    const out: QueueStats[] = [];
    for (const queue of queues) {
      const reply = await withTimeout(
        this.publisher.checkQueue(this.queueName(queue)),
        this.options.publishTimeoutMs,
        'checkQueue timed out',
      );
      out.push({ queue, consumers: reply.consumerCount, messages_ready: reply.messageCount });
    }
    return out;
  }

  async close(): Promise<void> {
    for (const channel of this.consumers) await channel.close().catch(() => undefined);
    await this.publisher.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }

  private async declareTopology(channel: Channel): Promise<void> {
    const dlx = this.queueName(DEAD_LETTER_EXCHANGE);
    await channel.assertExchange(dlx, 'fanout', { durable: true });
    await channel.assertQueue(this.queueName(DEAD_LETTER_QUEUE), { durable: true });
    await channel.bindQueue(this.queueName(DEAD_LETTER_QUEUE), dlx, '');
    for (const queue of ALL_QUEUES) await this.declareQueue(channel, this.queueName(queue));
  }

  private async declareQueue(channel: Channel, name: string): Promise<void> {
    await channel.assertQueue(name, {
      durable: true,
      arguments: { 'x-dead-letter-exchange': this.queueName(DEAD_LETTER_EXCHANGE) },
    });
    this.declared.add(name);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BrokerUnavailableError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
