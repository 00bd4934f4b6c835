import { Controller, Delete, Inject, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AUTH_RPC, UserDeletionView } from '@svc/contracts';
import { CurrentPrincipal, Principal, Roles } from '@svc/platform';
import { ApiDoc } from '../http/api-doc';
import { actorOf, AuthRpcClient } from './auth-rpc.client';
import { AUTH_RPC_CLIENT, checkUuid } from './auth.controller';
import { GATEWAY_AUTH, GatewayAuth } from './guards';

@ApiTags('admin')
@Controller('users')
export class UsersController {
  constructor(
    @Inject(AUTH_RPC_CLIENT) private readonly rpc: AuthRpcClient,
    @Inject(GATEWAY_AUTH) private readonly auth: GatewayAuth,
  ) {}

  @ApiDoc({
    summary: "Delete an account (not one's own)",
    ok: UserDeletionView,
    problems: [409, 503],
  })
  @Delete(':id')
  @Roles('admin')
  async remove(@Param('id') id: string, @CurrentPrincipal() who: Principal): Promise<UserDeletionView> {
    const result = await this.rpc.call(
      AUTH_RPC.deleteUser,
      { id: checkUuid(id, 'User') },
      actorOf(who, undefined),
    );
    this.auth.gate.invalidate();
    return result;
  }
}
