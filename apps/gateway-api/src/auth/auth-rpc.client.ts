import { ClientProxy, ClientRMQ } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import {
  AUTH_RPC_QUEUE,
  AuthRpcBody,
  AuthRpcPattern,
  AuthRpcResult,
  DomainError,
  RpcActor,
  RpcReply,
} from '@svc/contracts';
import { AppConfig, InProcessRpcClient, Principal, processQueues } from '@svc/platform';

export function actorOf(principal: Principal | undefined, userAgent: string | undefined): RpcActor {
  return {
    userId: principal?.userId ?? null,
    role: principal?.role ?? 'guest',
    ipHash: principal?.addressHash ?? null,
    userAgent: userAgent ?? null,
  };
}

/**
 * Request/reply to auth-service over AMQP (over the in-process queues in the standalone mode); its
 * domain errors are raised again here unchanged.
 */
export class AuthRpcClient {
  private readonly client: Pick<ClientProxy, 'send' | 'close'>;

  constructor(private readonly config: AppConfig) {
    const queue = `${config.queuePrefix}${AUTH_RPC_QUEUE}`;
    this.client =
      config.mode === 'standalone'
        ? new InProcessRpcClient(processQueues(), queue)
        : new ClientRMQ({ urls: [config.amqpUrl], queue, queueOptions: { durable: true } });
  }

  async call<K extends AuthRpcPattern>(
    pattern: K,
    body: AuthRpcBody<K>,
    actor: RpcActor,
  ): Promise<AuthRpcResult<K>> {
    let reply: RpcReply<AuthRpcResult<K>>;
    try {
      reply = await firstValueFrom(
        this.client
          .send<RpcReply<AuthRpcResult<K>>>(pattern, { actor, body })
          .pipe(timeout(this.config.rpcTimeoutMs)),
      );
    } catch (error) {
      throw new DomainError(
        'service_unavailable',
        `auth-service did not answer (${(error as Error).message || 'timeout'})`,
      );
    }
    if (!reply.ok) throw new DomainError(reply.error.code, reply.error.message, reply.error.extra);
    return reply.value;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
