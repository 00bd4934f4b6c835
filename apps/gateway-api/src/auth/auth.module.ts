import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { AuthController } from './auth.controller';
import { UsersController } from './users.controller';

@Module({
  imports: [],
  controllers: [AuthController, AdminController, UsersController],
  providers: [],
  exports: [],
})
export class AuthModule {}
