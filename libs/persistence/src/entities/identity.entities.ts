import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '@svc/contracts';

@Entity({ name: 'app_user' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('text') email!: string;
  @Column('text') username!: string;
  @Column('text', { name: 'display_name' }) displayName!: string;
  /** argon2id hash; null for accounts that only sign in by e-mail link. */
  @Column('text', { name: 'password_hash', nullable: true }) passwordHash!: string | null;
  @Column('text') role!: Role;
  @Column('text') status!: 'pending' | 'active' | 'deactivated';
  @Column('text', { name: 'intended_use', nullable: true }) intendedUse!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'last_login_at', nullable: true }) lastLoginAt!: Date | null;
}

@Entity({ name: 'user_session' })
export class UserSessionEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('uuid') jti!: string;
  /** SHA-256 of the raw JWT; the token itself is never stored. */
  @Column('text', { name: 'token_hash' }) tokenHash!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'last_seen_at', nullable: true }) lastSeenAt!: Date | null;
  @Column('text', { name: 'user_agent', nullable: true }) userAgent!: string | null;
  @Column('text', { name: 'client_ip_hash', nullable: true }) clientIpHash!: string | null;
}

@Entity({ name: 'api_key' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('text') name!: string;
  @Column('text') prefix!: string;
  /** SHA-256 hex of the raw key; the key itself is shown once and never stored. */
  @Column('text', { name: 'key_hash' }) keyHash!: string;
  @Column('text', { nullable: true }) role!: Role | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
}

@Entity({ name: 'auth_token' })
export class AuthTokenEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @Column('text') kind!: 'magic_link' | 'password_reset';
  @Column('text', { name: 'token_hash' }) tokenHash!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt!: Date | null;
}

@Entity({ name: 'quota' })
export class QuotaEntity {
  /** A user id, or the daily-rotated hash of an anonymous caller's address. */
  @PrimaryColumn('text') key!: string;
  @PrimaryColumn('text') resource!: string;
  @PrimaryColumn('timestamptz', { name: 'period_start' }) periodStart!: Date;
  @Column('int') count!: number;
  @Column('int') limit!: number;
}

@Entity({ name: 'audit_log' })
export class AuditLogEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'actor_user_id', nullable: true }) actorUserId!: string | null;
  @Column('text') action!: string;
  @Column('text', { nullable: true }) target!: string | null;
  @Column('jsonb') payload!: Record<string, unknown>;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt!: Date;
}

@Entity({ name: 'visitor_event' })
export class VisitorEventEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id!: string;
  @Column('text', { name: 'visitor_hash' }) visitorHash!: string;
  @Column('date') day!: string;
  @Column('text') method!: string;
  @Column('text') path!: string;
  @Column('int') status!: number;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ name: 'service_secret' })
export class ServiceSecretEntity {
  @PrimaryColumn('text') name!: string;
  @Column('text') value!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
