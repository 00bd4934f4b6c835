import { Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  ApproveUserRequest,
  AuditEntryView,
  AUTH_RPC,
  DatabaseResetView,
  ListAuditQuery,
  ListUsersQuery,
  UpdateUserRequest,
  UserView,
} from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles, ValidBody, ValidQuery } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { actorOf, AuthRpcClient } from './auth-rpc.client';
import { AUTH_RPC_CLIENT, checkUuid } from './auth.controller';
import { GATEWAY_AUTH, GatewayAuth } from './guards';

@ApiTags('admin')
@Controller('admin')
export class AdminController {
  constructor(
    @Inject(AUTH_RPC_CLIENT) private readonly rpc: AuthRpcClient,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  @ApiDoc({ summary: 'The security audit log, newest first', ok: [AuditEntryView], problems: [503] })
  @Get('audit')
  @Roles('admin')
  audit(@ValidQuery() query: ListAuditQuery, @CurrentPrincipal() who: Principal): Promise<AuditEntryView[]> {
    return this.rpc.call(AUTH_RPC.listAudit, query, actorOf(who, undefined));
  }

  @ApiDoc({ summary: 'Accounts, newest first', ok: [UserView], problems: [503] })
  @Get('users')
  @Roles('admin')
  users(@ValidQuery() query: ListUsersQuery, @CurrentPrincipal() who: Principal): Promise<UserView[]> {
    return this.rpc.call(AUTH_RPC.listUsers, query, actorOf(who, undefined));
  }

  @ApiDoc({
    summary: 'Approve a pending account, optionally with a role',
    ok: UserView,
    problems: [409, 503],
  })
  @Post('users/:id/approve')
  @HttpCode(200)
  @Roles('admin')
  approve(
    @Param('id') id: string,
    @ValidBody() body: ApproveUserRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<UserView> {
    return this.rpc.call(
      AUTH_RPC.approveUser,
      { ...body, id: checkUuid(id, 'User') },
      actorOf(who, undefined),
    );
  }

  @ApiDoc({
    summary: "Change an account's role or status (deactivating revokes its sessions)",
    ok: UserView,
    problems: [409, 503],
  })
  @Patch('users/:id')
  @Roles('admin')
  async update(
    @Param('id') id: string,
    @ValidBody() body: UpdateUserRequest,
    @CurrentPrincipal() who: Principal,
  ): Promise<UserView> {
    const user = await this.rpc.call(
      AUTH_RPC.updateUser,
      { ...body, id: checkUuid(id, 'User') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return user;
  }

  @ApiDoc({
    summary: 'Drop and recreate the database schema, then re-create the bootstrap administrator',
    ok: DatabaseResetView,
    problems: [503],
  })
  @Post('reset-db')
  @HttpCode(200)
  @Roles('admin')
  async resetDb(@CurrentPrincipal() who: Principal): Promise<DatabaseResetView> {
    const result = await this.rpc.call(AUTH_RPC.resetDb, {}, actorOf(who, undefined));
    this.auth.gate.invalidate();
    return result;
  }
}
