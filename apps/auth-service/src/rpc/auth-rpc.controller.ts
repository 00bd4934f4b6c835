import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_RPC, DomainError, RpcReply, RpcRequest } from '@svc/contracts';
import { AccountsService } from '../accounts/accounts.service';
import { EmailFlowsService } from '../accounts/email-flows.service';
import { AdminService } from '../admin/admin.service';
import { ApiKeysService } from '../keys/api-keys.service';

/** Request/reply endpoints for the gateway; each one delegates to a use case and wraps the outcome. */
@Controller()
export class AuthRpcController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
    private readonly admin: AdminService,
    private readonly email: EmailFlowsService,
  ) {}

  @MessagePattern(AUTH_RPC.signup) signup(@Payload() r: RpcRequest<never>) {
    return reply(() => this.accounts.signup(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.login) login(@Payload() r: RpcRequest<never>) {
    return reply(() => this.accounts.login(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.logout) logout(@Payload() r: RpcRequest<never>) {
    return reply(() => this.accounts.logout(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.me) me(@Payload() r: RpcRequest<never>) {
    return reply(() => this.accounts.me(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.createApiKey) createKey(@Payload() r: RpcRequest<never>) {
    return reply(() => this.keys.create(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listApiKeys) listKeys() {
    return reply(() => this.keys.list());
  }
  @MessagePattern(AUTH_RPC.revokeApiKey) revokeKey(@Payload() r: RpcRequest<never>) {
    return reply(() => this.keys.revoke(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.apiKeyLogin) keyLogin(@Payload() r: RpcRequest<never>) {
    return reply(() => this.keys.login(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.revokeSessions) revokeSessions(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.revokeSessions(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listUsers) listUsers(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.listUsers(r.body));
  }
  @MessagePattern(AUTH_RPC.approveUser) approve(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.approve(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.updateUser) update(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.update(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.deleteUser) remove(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.remove(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listAudit) audit(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.listAudit(r.body));
  }
  @MessagePattern(AUTH_RPC.resetDb) resetDb(@Payload() r: RpcRequest<never>) {
    return reply(() => this.admin.resetDb(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.magicLinkRequest) magicRequest(@Payload() r: RpcRequest<never>) {
    return reply(() => this.email.requestMagicLink(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.magicLinkConsume) magicConsume(@Payload() r: RpcRequest<never>) {
    return reply(() => this.email.consumeMagicLink(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.passwordResetRequest) resetRequest(@Payload() r: RpcRequest<never>) {
    return reply(() => this.email.requestPasswordReset(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.passwordResetConsume) resetConsume(@Payload() r: RpcRequest<never>) {
    return reply(() => this.email.consumePasswordReset(r.body, r.actor));
  }
}

/** Domain errors travel back as data; anything else is logged by the caller side as an internal error. */
async function reply<T>(work: () => Promise<T>): Promise<RpcReply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof DomainError)
      return { ok: false, error: { code: error.code, message: error.message, extra: error.extra } };
    throw error;
  }
}
