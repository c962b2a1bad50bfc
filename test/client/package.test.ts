import { describe, expect, it } from 'vitest';

describe('@parley/client as installed', () => {
  it('resolves to the ESM build with its type declarations (npm install runs the build)', async () => {
    const installed = await import('@parley/client');
    expect(typeof installed.Parley).toBe('function');
    expect(new installed.ParleyQueryError({ type: 't', title: 'Bad Request', status: 400, detail: 'd', code: 'unexpected_syntax', line: 2, column: 3 })).toBeInstanceOf(installed.ParleyError);
    const { existsSync } = await import('node:fs');
    expect(existsSync(new URL('../../packages/client/dist/index.d.ts', import.meta.url))).toBe(true);
  });
});
