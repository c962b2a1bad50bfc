import { describe, expect, it } from 'vitest';
import { loadConfig, reasoningOptions } from '../../server/config.ts';

describe('settings from the environment', () => {
  it('refuses a pool or queue of size 0 by name, where 0 would admit nothing', () => {
    for (const name of ['PARLEY_REASON_MAX_QUEUE', 'PARLEY_NER_MAX_QUEUE', 'PARLEY_RULE_MAX_QUEUE', 'PARLEY_REASON_WORKERS', 'PARLEY_NER_WORKERS', 'PARLEY_REPLICA_GRAPHS', 'PARLEY_REASON_IDLE_MS']) {
      expect(() => loadConfig({ [name]: '0' }), name).toThrow(`${name} must be an integer of at least 1 (got '0')`);
    }
  });

  it('takes 0 where it means "off" and refuses what is not a whole number', () => {
    expect(loadConfig({ PARLEY_QUERY_INLINE_MS: '0', PARLEY_RATE_LIMIT_PER_MINUTE: '0', PARLEY_RULE_WORKERS: '0', PARLEY_PRELOAD_MAX_FACTS: '0' })).toMatchObject({ queryInlineMs: 0, rateLimitPerMinute: 0, symbolicWorkers: 0, preloadMaxFacts: 0 });
    expect(() => loadConfig({ PARLEY_QUERY_TIMEOUT_MS: '1.5' })).toThrow("PARLEY_QUERY_TIMEOUT_MS must be a non-negative integer (got '1.5')");
    expect(() => loadConfig({ PARLEY_REASON_MAX_QUEUE: 'many' })).toThrow('PARLEY_REASON_MAX_QUEUE must be an integer of at least 1');
  });

  it('reads the symbolic layer settings by their names, and by their deprecated PARLEY_RULE_ names when the new ones are unset', () => {
    expect(loadConfig({ PARLEY_SYMBOLIC_WORKERS: '3', PARLEY_SYMBOLIC_MAX_QUEUE: '7' })).toMatchObject({ symbolicWorkers: 3, symbolicMaxQueue: 7 });
    expect(loadConfig({ PARLEY_RULE_WORKERS: '2', PARLEY_RULE_MAX_QUEUE: '5' })).toMatchObject({ symbolicWorkers: 2, symbolicMaxQueue: 5 });
    expect(loadConfig({ PARLEY_SYMBOLIC_WORKERS: '3', PARLEY_RULE_WORKERS: '2', PARLEY_SYMBOLIC_MAX_QUEUE: '7', PARLEY_RULE_MAX_QUEUE: '5' })).toMatchObject({ symbolicWorkers: 3, symbolicMaxQueue: 7 });
    expect(loadConfig({}).symbolicWorkers).toBeUndefined();
    expect(loadConfig({}).symbolicMaxQueue).toBe(64);
    expect(() => loadConfig({ PARLEY_SYMBOLIC_MAX_QUEUE: '0', PARLEY_RULE_MAX_QUEUE: '5' })).toThrow("PARLEY_SYMBOLIC_MAX_QUEUE must be an integer of at least 1 (got '0')");
  });

  it('bounds a reasoning call at 2 minutes unless told otherwise, within 1 ms and an hour', () => {
    expect(loadConfig({}).reasonCallTimeoutMs).toBe(120_000);
    expect(reasoningOptions(loadConfig({ PARLEY_REASON_CALL_TIMEOUT_MS: '600000' })).callTimeoutMs).toBe(600_000);
    expect(() => loadConfig({ PARLEY_REASON_CALL_TIMEOUT_MS: '0' })).toThrow("PARLEY_REASON_CALL_TIMEOUT_MS must be an integer from 1 to 3600000 (got '0')");
    expect(() => loadConfig({ PARLEY_REASON_CALL_TIMEOUT_MS: '3600001' })).toThrow('PARLEY_REASON_CALL_TIMEOUT_MS must be an integer from 1 to 3600000');
  });

  it('bounds the snapshot file bytes the reasoning workers read at once at 512 MiB unless told otherwise; 0 reads one file at a time', () => {
    expect(reasoningOptions(loadConfig({})).snapshotReadBytes).toBe(512 * 1024 * 1024);
    expect(reasoningOptions(loadConfig({ PARLEY_SNAPSHOT_READ_BYTES: '1' })).snapshotReadBytes).toBe(1);
    expect(reasoningOptions(loadConfig({ PARLEY_SNAPSHOT_READ_BYTES: '0' })).snapshotReadBytes).toBe(0);
    expect(() => loadConfig({ PARLEY_SNAPSHOT_READ_BYTES: '-1' })).toThrow("PARLEY_SNAPSHOT_READ_BYTES must be a non-negative integer (got '-1')");
  });

  it('keeps idle reasoning workers for 15 minutes unless told otherwise', () => {
    expect(loadConfig({}).reasonIdleMs).toBe(900_000);
    expect(loadConfig({ PARLEY_REASON_IDLE_MS: '5000' }).reasonIdleMs).toBe(5_000);
  });
});
