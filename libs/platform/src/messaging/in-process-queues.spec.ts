import { Controller } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Module } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import { createLogger } from '../logging/logger';
import { InProcessBroker } from './in-process-broker';
import { InProcessQueues, QueuedMessage, Settle } from './in-process-queues';
import { InProcessRpcClient, InProcessRpcServer } from './in-process-rpc';
import type { Delivery, DeliveryOutcome } from './message-broker';

const message = (text: string): Omit<QueuedMessage, 'redelivered'> => ({
  content: Buffer.from(text),
  headers: {},
  replyTo: null,
  correlationId: null,
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function settleAll(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await tick();
}

describe('InProcessQueues', () => {
  it('keeps messages published before anyone consumes, then delivers them in order', async () => {
    const queues = new InProcessQueues();
    queues.send('q', message('a'));
    queues.send('q', message('b'));
    expect(queues.stats('q')).toEqual({ consumers: 0, ready: 2 });
    const seen: string[] = [];
    queues.consume(
      'q',
      (m, settle) => {
        seen.push(m.content.toString());
        settle('ack');
      },
      1,
    );
    await settleAll();
    expect(seen).toEqual(['a', 'b']);
    expect(queues.stats('q')).toEqual({ consumers: 1, ready: 0 });
  });

  it('never holds more unsettled deliveries per consumer than its prefetch', async () => {
    const queues = new InProcessQueues();
    const held: Settle[] = [];
    queues.consume('q', (_m, settle) => held.push(settle), 2);
    for (const text of ['1', '2', '3', '4', '5']) queues.send('q', message(text));
    await settleAll();
    expect(held).toHaveLength(2);
    expect(queues.stats('q').ready).toBe(3);
    held[0]!('ack');
    await settleAll();
    expect(held).toHaveLength(3);
    expect(queues.stats('q').ready).toBe(2);
  });

  it('gives each message to one consumer, round robin among those with room', async () => {
    const queues = new InProcessQueues();
    const byConsumer: Record<string, string[]> = { a: [], b: [] };
    for (const name of ['a', 'b'])
      queues.consume(
        'q',
        (m, settle) => {
          byConsumer[name]!.push(m.content.toString());
          settle('ack');
        },
        1,
      );
    for (const text of ['1', '2', '3', '4']) queues.send('q', message(text));
    await settleAll();
    expect([...byConsumer['a']!, ...byConsumer['b']!].sort()).toEqual(['1', '2', '3', '4']);
    expect(byConsumer['a']!.length).toBeGreaterThan(0);
    expect(byConsumer['b']!.length).toBeGreaterThan(0);
  });

  it('dead-letters a rejected message, and puts a requeued one back at the head marked redelivered', async () => {
    const queues = new InProcessQueues();
    queues.declare('dead');
    queues.declare('q', { deadLetterQueue: 'dead' });
    const deliveries: { text: string; redelivered: boolean }[] = [];
    let first = true;
    queues.consume(
      'q',
      (m, settle) => {
        deliveries.push({ text: m.content.toString(), redelivered: m.redelivered });
        if (m.content.toString() === 'bad') settle('reject');
        else if (first) {
          first = false;
          settle('requeue');
        } else settle('ack');
      },
      1,
    );
    queues.send('q', message('good'));
    queues.send('q', message('bad'));
    await settleAll();
    expect(deliveries).toEqual([
      { text: 'good', redelivered: false },
      { text: 'good', redelivered: true },
      { text: 'bad', redelivered: false },
    ]);
    expect(queues.get('dead')?.content.toString()).toBe('bad');
    expect(queues.get('dead')).toBeNull();
  });

  it('a cancelled consumer gets nothing new; a closed one returns its unsettled deliveries', async () => {
    const queues = new InProcessQueues();
    const held: Settle[] = [];
    const first = queues.consume('q', (_m, settle) => held.push(settle), 1);
    queues.send('q', message('x'));
    queues.send('q', message('y'));
    await settleAll();
    expect(held).toHaveLength(1);
    first.close();
    held[0]!('ack'); // too late: the delivery went back with the closed consumer
    expect(queues.stats('q')).toEqual({ consumers: 0, ready: 2 });
    const seen: { text: string; redelivered: boolean }[] = [];
    const second = queues.consume(
      'q',
      (m, settle) => {
        seen.push({ text: m.content.toString(), redelivered: m.redelivered });
        settle('ack');
      },
      5,
    );
    await settleAll();
    expect(seen).toEqual([
      { text: 'x', redelivered: true },
      { text: 'y', redelivered: false },
    ]);
    second.cancel();
    queues.send('q', message('z'));
    await settleAll();
    expect(seen).toHaveLength(2);
    expect(queues.stats('q').ready).toBe(1);
  });
});

describe('InProcessBroker', () => {
  const logger = createLogger({ name: 'test', format: 'json', level: 'error' });

  it('delivers JSON job messages with a traceparent, flags malformed bytes, and dead-letters rejections', async () => {
    const queues = new InProcessQueues();
    const broker = new InProcessBroker({ queues, prefix: 'p.', logger });
    const seen: Delivery[] = [];
    await broker.consume('svc.jobs', async (d): Promise<DeliveryOutcome> => {
      seen.push(d);
      return d.malformed ? 'reject' : 'ack';
    });
    await broker.publishJob('svc.jobs', { job_id: '00000000-0000-4000-8000-000000000000' });
    broker.publishRaw('svc.jobs', Buffer.from('{ not json'));
    await settleAll();
    expect(seen[0]).toMatchObject({
      body: { job_id: '00000000-0000-4000-8000-000000000000' },
      malformed: false,
      redelivered: false,
    });
    expect(seen[0]?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(seen[1]).toMatchObject({ body: null, malformed: true });
    expect(queues.get('p.svc.dead-letter')?.content.toString()).toBe('{ not json');
    expect(await broker.queueStats(['svc.jobs'])).toEqual([
      { queue: 'svc.jobs', consumers: 1, messages_ready: 0 },
    ]);
    await broker.close();
    expect(broker.isConnected()).toBe(false);
    await expect(broker.publishJob('svc.jobs', { job_id: 'x' })).rejects.toThrow('closed');
  });
});

@Controller()
class EchoController {
  @MessagePattern('echo') echo(@Payload() body: { text: string }) {
    return { echoed: body.text.toUpperCase() };
  }
  @MessagePattern('fail') fail() {
    throw new Error('broken');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('InProcessRpcServer and InProcessRpcClient', () => {
  it('answers requests through the queue, including one sent before the server listened', async () => {
    const queues = new InProcessQueues();
    const client = new InProcessRpcClient(queues, 'rpc');
    const early = firstValueFrom(client.send<{ echoed: string }>('echo', { text: 'early' }));
    await settleAll();
    const app = await NestFactory.createMicroservice(EchoModule, {
      strategy: new InProcessRpcServer(queues, 'rpc', 4),
      logger: false,
    });
    await app.listen();
    try {
      expect(await early).toEqual({ echoed: 'EARLY' });
      expect(await firstValueFrom(client.send('echo', { text: 'late' }))).toEqual({ echoed: 'LATE' });
      await expect(firstValueFrom(client.send('missing', {}))).rejects.toBe(
        'There is no matching message handler defined in the remote service.',
      );
      await expect(firstValueFrom(client.send('fail', {}))).rejects.toBeDefined();
    } finally {
      client.close();
      await app.close();
    }
  });
});
