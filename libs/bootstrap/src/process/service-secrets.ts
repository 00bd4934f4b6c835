import { randomBytes } from 'node:crypto';
import { SecretRepository } from '@svc/persistence';
import { AppConfig, Logger } from '@svc/platform';

export interface ServiceSecrets {
  /** HS256 key for sessions and API-key logins. */
  jwtSecret: string;
  /** Shared by every gateway replica: anonymous callers' quota keys are HMACs of it, the day and the address. */
  addressSecret: Buffer;
}

/**
 * SVC_JWT_SECRET when set; otherwise a secret generated once and kept in the database, so every
 * process of one installation agrees on it without configuration.
 */
export async function resolveServiceSecrets(
  config: AppConfig,
  secrets: SecretRepository,
  logger: Logger,
): Promise<ServiceSecrets> {
  let jwtSecret = config.jwtSecret;
  if (jwtSecret === null) {
    jwtSecret = await secrets.getOrCreate('jwt_secret', () => randomBytes(48).toString('base64url'));
    logger.warn(
      'SVC_JWT_SECRET is not set; using the secret generated for this installation and stored in the database',
    );
  }
  const address = await secrets.getOrCreate('address_secret', () => randomBytes(32).toString('hex'));
  return { jwtSecret, addressSecret: Buffer.from(address, 'hex') };
}
