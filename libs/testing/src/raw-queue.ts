import { connect } from 'amqplib';
import { processQueues } from '@svc/platform';
import { currentTestRun } from './test-environment';

/** Raw access to this run's queues, for tests that put foreign bytes on a queue or read the dead letters. */
export interface RawQueueAccess {
  send(queue: string, content: string): Promise<void>;
  /** The oldest ready message of the queue (acknowledged), or null. */
  get(queue: string): Promise<string | null>;
  close(): Promise<void>;
}

/** Queue names are logical (`svc.jobs`); the run's prefix is added here. */
export async function openRawQueueAccess(): Promise<RawQueueAccess> {
  const { amqpUrl, queuePrefix, standalone } = currentTestRun();
  if (standalone !== undefined) {
    const queues = processQueues();
    return {
      async send(queue, content) {
        queues.send(`${queuePrefix}${queue}`, {
          content: Buffer.from(content),
          headers: {},
          replyTo: null,
          correlationId: null,
        });
      },
      async get(queue) {
        return queues.get(`${queuePrefix}${queue}`)?.content.toString('utf8') ?? null;
      },
      async close() {},
    };
  }
  const connection = await connect(amqpUrl);
  const channel = await connection.createChannel();
  return {
    async send(queue, content) {
      channel.sendToQueue(`${queuePrefix}${queue}`, Buffer.from(content), { persistent: true });
    },
    async get(queue) {
      const message = await channel.get(`${queuePrefix}${queue}`, { noAck: true });
      return message === false ? null : message.content.toString('utf8');
    },
    async close() {
      await channel.close();
      await connection.close();
    },
  };
}
