import { DynamicModule, Module } from '@nestjs/common';
import { PersistenceModule, WorkerHttpModule } from '@svc/bootstrap';
import { AccountsService } from './accounts/accounts.service';
import { EmailFlowsService } from './accounts/email-flows.service';
import { LoginThrottle } from './accounts/login-throttle';
import { PasswordChangeService } from './accounts/password-change.service';
import { AdminService } from './admin/admin.service';
import { BootstrapService } from './admin/bootstrap.service';
import { AUTH_CONTEXT, AuthContext } from './auth-context';
import { ApiKeysService } from './keys/api-keys.service';
import { AuthRpcController } from './rpc/auth-rpc.controller';

@Module({})
export class AuthModule {
  static forRoot(context: AuthContext): DynamicModule {
    return {
      module: AuthModule,
      imports: [WorkerHttpModule.forRoot(context.infra), PersistenceModule.forRoot(context.infra.repos)],
      controllers: [AuthRpcController],
      providers: [
        { provide: AUTH_CONTEXT, useValue: context },
        AccountsService,
        ApiKeysService,
        AdminService,
        BootstrapService,
        EmailFlowsService,
        LoginThrottle,
        PasswordChangeService,
      ],
    };
  }
}
