import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ROLES, Role } from '../roles';
import { trimString } from '../transforms';
import { OptionalInteger } from '../ranges';
import { DiffersFrom } from '../validators';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1000;
export const API_KEY_TTL_DEFAULT_SECONDS = 3600;
export const API_KEY_TTL_MIN_SECONDS = 60;
export const API_KEY_TTL_MAX_SECONDS = 86_400;

/** The rules every chosen password meets: at sign-up, at a reset by e-mail and at a change alike. */
const NewPassword = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ minLength: PASSWORD_MIN_LENGTH }),
    IsString(),
    MinLength(PASSWORD_MIN_LENGTH),
    MaxLength(PASSWORD_MAX_LENGTH),
  );

export class SignupRequest {
  @ApiProperty() @Transform(trimString) @IsEmail() @MaxLength(320) email!: string;
  @ApiProperty({ pattern: '^[A-Za-z0-9_.-]{3,40}$' })
  @Transform(trimString)
  @Matches(/^[A-Za-z0-9_.-]{3,40}$/, {
    message: 'username must be 3-40 letters, digits, dot, dash or underscore',
  })
  username!: string;
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(200) display_name!: string;
  @NewPassword()
  password!: string;
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(4000) intended_use!: string;
}

export class LoginRequest {
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(320) email!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(PASSWORD_MAX_LENGTH) password!: string;
}

export class CreateApiKeyRequest {
  @ApiProperty() @Transform(trimString) @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @ApiPropertyOptional({ enum: ROLES, description: 'Bounded by the owner role; defaults to it' })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;
  @ApiPropertyOptional({ format: 'uuid', description: 'Admins only: create the key for this user' })
  @IsOptional()
  @Matches(/^[0-9a-f-]{36}$/)
  user_id?: string;
}

export class ApiKeyLoginRequest {
  @ApiProperty() @IsString() @MinLength(8) @MaxLength(200) api_key!: string;
  @OptionalInteger({
    min: API_KEY_TTL_MIN_SECONDS,
    max: API_KEY_TTL_MAX_SECONDS,
    default: API_KEY_TTL_DEFAULT_SECONDS,
  })
  ttl_seconds?: number;
}

export class ApproveUserRequest {
  @ApiPropertyOptional({ enum: ['researcher', 'operator'] })
  @IsOptional()
  @IsIn(['researcher', 'operator'])
  role?: 'researcher' | 'operator';
}

export class UpdateUserRequest {
  @ApiPropertyOptional({ enum: ROLES }) @IsOptional() @IsIn(ROLES) role?: Role;
  @ApiPropertyOptional({ enum: ['active', 'deactivated'] })
  @IsOptional()
  @IsIn(['active', 'deactivated'])
  status?: 'active' | 'deactivated';
}

export class EmailRequest {
  @ApiProperty() @Transform(trimString) @IsEmail() @MaxLength(320) email!: string;
}

export class PasswordResetConsumeRequest {
  @ApiProperty() @IsString() @MinLength(16) @MaxLength(200) token!: string;
  @NewPassword()
  new_password!: string;
}

export class ChangePasswordRequest {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(PASSWORD_MAX_LENGTH) current_password!: string;
  @NewPassword()
  @DiffersFrom('current_password')
  new_password!: string;
}
