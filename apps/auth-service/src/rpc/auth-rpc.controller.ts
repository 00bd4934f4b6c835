import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_RPC,
  AuthRpcBody,
  AuthRpcPattern,
  AuthRpcResult,
  DomainError,
  RpcReply,
  RpcRequest,
} from '@svc/contracts';
import { AccountsService } from '../accounts/accounts.service';
import { EmailFlowsService } from '../accounts/email-flows.service';
import { PasswordChangeService } from '../accounts/password-change.service';
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
    private readonly passwords: PasswordChangeService,
  ) {}

  @MessagePattern(AUTH_RPC.signup) signup(@Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.signup>>) {
    return reply(AUTH_RPC.signup, () => this.accounts.signup(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.login) login(@Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.login>>) {
    return reply(AUTH_RPC.login, () => this.accounts.login(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.logout) logout(@Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.logout>>) {
    return reply(AUTH_RPC.logout, () => this.accounts.logout(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.me) me(@Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.me>>) {
    return reply(AUTH_RPC.me, () => this.accounts.me(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.createApiKey) createKey(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.createApiKey>>,
  ) {
    return reply(AUTH_RPC.createApiKey, () => this.keys.create(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listApiKeys) listKeys() {
    return reply(AUTH_RPC.listApiKeys, () => this.keys.list());
  }
  @MessagePattern(AUTH_RPC.revokeApiKey) revokeKey(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.revokeApiKey>>,
  ) {
    return reply(AUTH_RPC.revokeApiKey, () => this.keys.revoke(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.apiKeyLogin) keyLogin(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.apiKeyLogin>>,
  ) {
    return reply(AUTH_RPC.apiKeyLogin, () => this.keys.login(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.revokeSessions) revokeSessions(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.revokeSessions>>,
  ) {
    return reply(AUTH_RPC.revokeSessions, () => this.admin.revokeSessions(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listUsers) listUsers(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.listUsers>>,
  ) {
    return reply(AUTH_RPC.listUsers, () => this.admin.listUsers(r.body));
  }
  @MessagePattern(AUTH_RPC.approveUser) approve(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.approveUser>>,
  ) {
    return reply(AUTH_RPC.approveUser, () => this.admin.approve(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.updateUser) update(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.updateUser>>,
  ) {
    return reply(AUTH_RPC.updateUser, () => this.admin.update(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.deleteUser) remove(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.deleteUser>>,
  ) {
    return reply(AUTH_RPC.deleteUser, () => this.admin.remove(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.listAudit) audit(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.listAudit>>,
  ) {
    return reply(AUTH_RPC.listAudit, () => this.admin.listAudit(r.body));
  }
  @MessagePattern(AUTH_RPC.resetDb) resetDb(@Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.resetDb>>) {
    return reply(AUTH_RPC.resetDb, () => this.admin.resetDb(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.magicLinkRequest) magicRequest(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.magicLinkRequest>>,
  ) {
    return reply(AUTH_RPC.magicLinkRequest, () => this.email.requestMagicLink(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.magicLinkConsume) magicConsume(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.magicLinkConsume>>,
  ) {
    return reply(AUTH_RPC.magicLinkConsume, () => this.email.consumeMagicLink(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.passwordResetRequest) resetRequest(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.passwordResetRequest>>,
  ) {
    return reply(AUTH_RPC.passwordResetRequest, () => this.email.requestPasswordReset(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.passwordResetConsume) resetConsume(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.passwordResetConsume>>,
  ) {
    return reply(AUTH_RPC.passwordResetConsume, () => this.email.consumePasswordReset(r.body, r.actor));
  }
  @MessagePattern(AUTH_RPC.changePassword) changePassword(
    @Payload() r: RpcRequest<AuthRpcBody<typeof AUTH_RPC.changePassword>>,
  ) {
    return reply(AUTH_RPC.changePassword, () => this.passwords.change(r.body, r.actor));
  }
}

/**
 * Domain errors travel back as data; anything else is logged by the caller side as an internal error.
 * The pattern types the answer: a handler cannot answer another shape than the RPC map says.
 */
async function reply<K extends AuthRpcPattern>(
  _pattern: K,
  work: () => Promise<AuthRpcResult<K>>,
): Promise<RpcReply<AuthRpcResult<K>>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof DomainError)
      return { ok: false, error: { code: error.code, message: error.message, extra: error.extra } };
    throw error;
  }
}
