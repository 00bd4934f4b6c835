import { connect } from 'amqplib';
import { ALL_QUEUES, AUTH_RPC_QUEUE, DEAD_LETTER_EXCHANGE, DEAD_LETTER_QUEUE } from '@svc/contracts';

/** Deletes every queue and the dead-letter exchange declared under a throw-away prefix. */
export async function removeQueues(amqpUrl: string, prefix: string): Promise<void> {
  const connection = await connect(amqpUrl);
  const channel = await connection.createChannel();
  for (const queue of [...ALL_QUEUES, DEAD_LETTER_QUEUE, AUTH_RPC_QUEUE])
    await channel.deleteQueue(`${prefix}${queue}`);
  await channel.deleteExchange(`${prefix}${DEAD_LETTER_EXCHANGE}`);
  await channel.close();
  await connection.close();
}
