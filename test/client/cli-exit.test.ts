import { describe, expect, it } from 'vitest';
import { ParleyConnectionError, ParleyError } from '@parley/client';
import { exitCodeOf } from '../../packages/cli/src/main.ts';
import { EXIT } from '../../packages/cli/src/exit.ts';

const answer = (status: number, code: string) => new ParleyError({ type: `https://parley.dev/problems/${code}`, title: 't', status, code, detail: 'd' });

describe('the CLI exit code of an error', () => {
  it('says "retry later" only for what a later try can get past, and "failure" for a server fault', () => {
    expect(exitCodeOf(answer(500, 'linear_regexp_unavailable'))).toBe(EXIT.failure);
    expect(exitCodeOf(answer(500, 'internal_error'))).toBe(EXIT.failure);
    for (const status of [408, 429, 502, 503, 504]) expect(exitCodeOf(answer(status, 'busy')), String(status)).toBe(EXIT.unavailable);
    expect(exitCodeOf(answer(400, 'unexpected_syntax'))).toBe(EXIT.invalid);
    expect(exitCodeOf(answer(413, 'too_large'))).toBe(EXIT.invalid);
    expect(exitCodeOf(answer(404, 'not_found'))).toBe(EXIT.notFound);
    expect(exitCodeOf(answer(403, 'forbidden'))).toBe(EXIT.denied);
    expect(exitCodeOf(new ParleyConnectionError('connect ECONNREFUSED'))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new Error('store locked'))).toBe(EXIT.failure);
  });
});
