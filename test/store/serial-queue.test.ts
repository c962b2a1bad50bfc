import { expect, it } from 'vitest';
import { SerialQueue } from '../../engine/store/serial-queue.ts';

it('runs tasks of one key in order, even after a failure, and tasks of other keys independently', async () => {
  const queue = new SerialQueue();
  const log: string[] = [];
  const step = (name: string, ms: number, fail = false) => async () => {
    log.push(`${name} start`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    log.push(`${name} end`);
    if (fail) throw new Error(name);
    return name;
  };
  const a1 = queue.run('a', step('a1', 30, true));
  const a2 = queue.run('a', step('a2', 1));
  const b1 = queue.run('b', step('b1', 1));
  await expect(a1).rejects.toThrow('a1');
  expect(await a2).toBe('a2');
  expect(await b1).toBe('b1');
  await queue.drain();
  expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
  expect(log.indexOf('b1 end')).toBeLessThan(log.indexOf('a1 end'));
});
