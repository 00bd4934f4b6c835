import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, t=3, p=4). */
export class PasswordHasher {
  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    if (hash === null) return false;
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
