import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MinLength } from 'class-validator';
import { IsTimestamp, IsValidUuid } from '../validators';
import { LimitParam } from '../ranges';

export const AUDIT_ACTIONS = [
  'signup',
  'login_ok',
  'login_fail',
  'logout',
  'admin_approve',
  'role_change',
  'deactivate',
  'api_key_mint',
  'api_key_revoke',
  'sessions_revoked',
  'db_reset',
  'user_deleted',
  'password_reset',
  'password_changed',
  'login_throttled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export class ListAuditQuery {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS }) @IsOptional() @IsIn(AUDIT_ACTIONS) action?: AuditAction;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsValidUuid() actor_user_id?: string;
  @LimitParam({ default: 100, max: 1000 })
  limit?: number;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsTimestamp() after?: string;
}

export class ListUsersQuery {
  @ApiPropertyOptional({ enum: ['pending', 'active', 'deactivated'] })
  @IsOptional()
  @IsIn(['pending', 'active', 'deactivated'])
  status?: 'pending' | 'active' | 'deactivated';
}

export class ConsumeTokenQuery {
  @ApiPropertyOptional() @IsString() @MinLength(16) token!: string;
}
