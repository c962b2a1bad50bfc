import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError } from '../errors.ts';
import type { ApiKeyRecord, KeyScope, StoreBackend } from './backend.ts';
import { validateName } from './validate.ts';

/** API key records kept in memory for authentication (a few per tenant in practice). */
const KEY_RECORDS_KEPT = 10_000;

/** API keys, each of one tenant: created, authenticated and revoked over the backend's key records. */
export class ApiKeys {
  /**
   * API key records by key id, as last written by this process (the store's only writer): no
   * backend read per request. With each, the secret last found to match it, compared in constant
   * time with the one presented: hashing it again cost every request about 9 µs. A write drops both.
   */
  private readonly keyRecords = new Map<string, { record: ApiKeyRecord; verified?: Buffer }>();
  /** Counts key writes: a record read from the backend while one happened may be stale, and is not kept. */
  private keyWrites = 0;

  constructor(private readonly backend: StoreBackend) {}

  async createKey(options: { tenant: string; scope: KeyScope; admin?: boolean; name?: string; secret?: string }): Promise<{ record: ApiKeyRecord; secret: string }> {
    validateName('tenant', options.tenant);
    const generated = newApiKey();
    const secret = options.secret ?? generated.secret;
    const keyId = options.secret ? keyIdOf(options.secret) : generated.keyId;
    const record: ApiKeyRecord = {
      key_id: keyId,
      tenant: options.tenant,
      scope: options.scope,
      admin: options.admin ?? false,
      ...(options.name ? { name: options.name } : {}),
      created_at: new Date().toISOString(),
      hash: hashSecret(secret),
    };
    await this.putKeyRecord(record);
    return { record, secret };
  }

  /**
   * The admin key on first start: the one from the environment when given (stored
   * hashed), else a new one whose secret is returned once to be printed. A key from
   * the environment that was revoked stays revoked: its record is kept, and a
   * restart with the same value does not bring it back (`revoked` says so).
   */
  async bootstrapAdminKey(fromEnvironment?: string): Promise<{ created: boolean; secret?: string; revoked?: boolean }> {
    if (fromEnvironment) {
      const existing = await this.backend.getKey(keyIdOf(fromEnvironment));
      if (existing && !secretMatches(fromEnvironment, existing.hash)) {
        throw new ConflictError('admin_key_clash', 'PARLEY_ADMIN_KEY has the key id of another key; choose another value');
      }
      if (existing?.revoked_at) return { created: false, revoked: true };
      if (existing?.admin) return { created: false };
      await this.createKey({ tenant: 'admin', scope: 'write', admin: true, name: 'bootstrap (PARLEY_ADMIN_KEY)', secret: fromEnvironment });
      return { created: true };
    }
    if ((await this.backend.listKeys()).some((record) => record.admin && !record.revoked_at)) return { created: false };
    const { secret } = await this.createKey({ tenant: 'admin', scope: 'write', admin: true, name: 'bootstrap' });
    return { created: true, secret };
  }

  /** The live key record a secret belongs to, compared in constant time; undefined otherwise. */
  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    const keyId = keyIdOf(secret);
    let kept = this.keyRecords.get(keyId);
    if (!kept) {
      const writes = this.keyWrites;
      const read = await this.backend.getKey(keyId);
      if (!read) return undefined;
      kept = { record: read };
      if (writes === this.keyWrites) {
        if (this.keyRecords.size >= KEY_RECORDS_KEPT) this.keyRecords.clear();
        this.keyRecords.set(keyId, kept);
      }
    }
    const { record, verified } = kept;
    if (record.revoked_at) return undefined;
    const presented = Buffer.from(secret);
    if (verified) return verified.length === presented.length && timingSafeEqual(verified, presented) ? record : undefined;
    if (!secretMatches(secret, record.hash)) return undefined;
    kept.verified = presented;
    return record;
  }

  /** Writes a key record; a read of it under way meanwhile (or before) is not kept in keyRecords. */
  private async putKeyRecord(record: ApiKeyRecord): Promise<void> {
    this.keyWrites++;
    this.keyRecords.delete(record.key_id);
    try {
      await this.backend.putKey(record);
    } finally {
      this.keyWrites++;
      this.keyRecords.delete(record.key_id);
    }
  }

  listKeys(): Promise<ApiKeyRecord[]> {
    return this.backend.listKeys();
  }

  async revokeKey(keyId: string): Promise<ApiKeyRecord> {
    const record = await this.backend.getKey(keyId);
    if (!record) throw new NotFoundError('key', keyId);
    if (!record.revoked_at) {
      record.revoked_at = new Date().toISOString();
      await this.putKeyRecord(record);
    }
    return record;
  }
}

/** API keys look like `pk_<key_id>_<secret>`: the id finds the record, the secret is compared by hash. */
export const API_KEY_PREFIX = 'pk_';

export function newApiKey(): { keyId: string; secret: string; hash: string } {
  const keyId = randomBytes(8).toString('hex');
  const secret = `${API_KEY_PREFIX}${keyId}_${randomBytes(24).toString('base64url')}`;
  return { keyId, secret, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The id a key is stored under: the one inside a generated secret, else (an operator's own secret) the start of its hash. */
export function keyIdOf(secret: string): string {
  const match = /^pk_([0-9a-f]{16})_[A-Za-z0-9_-]+$/.exec(secret);
  return match?.[1] ?? hashSecret(secret).slice(0, 16);
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
