import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Role, ROLES } from '../roles';
import { EXAMPLE_IDS, IdProperty } from '../example-ids';

export const USER_STATUSES = ['pending', 'active', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** An account, as administrators and its owner see it. */
export class UserView {
  @IdProperty('user') id!: string;
  @ApiProperty({ format: 'email', example: 'ada@example.org' }) email!: string;
  @ApiProperty({ example: 'ada.lovelace' }) username!: string;
  @ApiProperty({ example: 'Ada Lovelace' }) display_name!: string;
  @ApiProperty({ enum: ROLES, example: 'researcher' }) role!: Role;
  @ApiProperty({ enum: USER_STATUSES, example: 'active' }) status!: UserStatus;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'What the account holder said they would use the service for, at sign-up',
    example: 'GO annotation of bacterial proteomes',
  })
  intended_use!: string | null;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589000Z' }) created_at!: string;
  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    type: String,
    example: '2025-03-15T08:00:00.000000Z',
  })
  last_login_at!: string | null;
}

/** The account a sign-up created; it waits for an administrator's approval. */
export class SignupView {
  @IdProperty('user') id!: string;
  @ApiProperty({ format: 'email', example: 'ada@example.org' }) email!: string;
  @ApiProperty({ example: 'ada.lovelace' }) username!: string;
  @ApiProperty({ enum: USER_STATUSES, example: 'pending' }) status!: UserStatus;
}

/** The signed-in account; the session itself travels in the `svc_session` cookie. */
export class SessionUserView {
  @IdProperty('user') id!: string;
  @ApiProperty({ format: 'email', example: 'ada@example.org' }) email!: string;
  @ApiProperty({ example: 'ada.lovelace' }) username!: string;
  @ApiProperty({ example: 'Ada Lovelace' }) display_name!: string;
  @ApiProperty({ enum: ROLES, example: 'researcher' }) role!: Role;
  @ApiProperty({ enum: USER_STATUSES, example: 'active' }) status!: string;
}

/** An API key's metadata (never the key itself). */
export class ApiKeyView {
  @IdProperty('apiKey') id!: string;
  @IdProperty('user', { description: 'The owner of the key' })
  user_id!: string;
  @ApiProperty({ example: 'Xq3vT9aB', description: 'The first characters of the key, to recognise it' })
  prefix!: string;
  @ApiProperty({ example: 'laptop scripts' }) name!: string;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589000Z' }) created_at!: string;
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    type: String,
    example: 'researcher',
    description: "The role the key acts with (null: its owner's role)",
  })
  role!: Role | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) last_used_at!: string | null;
}

/** A freshly minted API key: its metadata and the raw key, shown this once only. */
export class CreatedApiKeyView extends ApiKeyView {
  @ApiProperty({
    example: 'Xq3vT9aBkL2mN8pQ4rS6tU1vW3xY5zA7bC9dE0fG2hI',
    description: 'The raw key; it is not stored and cannot be shown again',
  })
  key!: string;
}

/** A bearer token exchanged for an API key. */
export class ApiKeyTokenView {
  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzZjJi...',
    description: 'A signed JWT',
  })
  token!: string;
  @ApiProperty({ enum: ['bearer'] }) token_type!: 'bearer';
  @ApiProperty({ example: 3600, description: 'Seconds until the token expires' }) expires_in!: number;
  @ApiProperty({ enum: ROLES, example: 'researcher' }) role!: string;
  @IdProperty('user', { description: "The key owner's account id" })
  sub!: string;
}

export class SessionsRevokedView {
  @IdProperty('user') user_id!: string;
  @ApiProperty({ example: 2, description: 'How many open sessions were revoked' }) sessions_revoked!: number;
}

/** The same answer whether or not the address has an account. */
export class EmailRequestAcceptedView {
  @ApiProperty({ type: Boolean, example: true }) accepted!: true;
}

export class PasswordResetView {
  @ApiProperty({ type: Boolean, example: true }) reset!: true;
  @ApiProperty({ example: 1, description: 'Sessions of the account revoked along with the old password' })
  sessions_revoked!: number;
}

export class PasswordChangedView {
  @ApiProperty({ type: Boolean, example: true }) changed!: true;
  @ApiProperty({ example: 1, description: 'Other sessions of the account revoked; the one that asked stays' })
  sessions_revoked!: number;
}

export class UserDeletionView {
  @IdProperty('user') id!: string;
  @ApiProperty({ example: true }) deleted!: boolean;
}

export class DatabaseResetView {
  @ApiProperty({ type: Boolean, example: true }) reset!: true;
  @ApiProperty({ type: [String], example: ['0001_init.sql', '0002_auth.sql'] }) migrations_applied!: string[];
}

/** One entry of the append-only security log. */
export class AuditEntryView {
  @ApiProperty({ example: 4182 }) id!: number;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, example: EXAMPLE_IDS.user })
  actor_user_id!: string | null;
  @ApiProperty({ example: 'login_ok', description: 'What happened (see the `action` filter for the values)' })
  action!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: EXAMPLE_IDS.user,
    description: 'What the action applied to, usually an account or API-key id',
  })
  target!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { ip_hash: '5f3c9a1b2d4e6f70' } })
  payload!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', example: '2025-03-14T09:26:53.589000Z' }) occurred_at!: string;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'svc_session';
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 3600;
