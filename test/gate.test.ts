import { describe, expect, it } from 'vitest';
import { LimitError, OverloadedError } from '../engine/errors.ts';
import { CallGate } from '../engine/gate.ts';

/** A task runner whose tasks finish only when the test says so: what the gate does is then a matter of order, not of time. */
function heldTasks() {
  const started: number[] = [];
  const finish = new Map<number, () => void>();
  const signals: AbortSignal[] = [];
  return {
    started,
    signals,
    run: (task: number, signal: AbortSignal) =>
      new Promise<number>((resolve) => {
        started.push(task);
        signals.push(signal);
        finish.set(task, () => resolve(task * 10));
      }),
    finish: (task: number) => finish.get(task)!(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CallGate', () => {
  const activity = { name: 'entity recognition', code: 'ner' };

  it('sends one task per lane at a time and returns the results in task order', async () => {
    const gate = new CallGate(activity, 4, 60_000, 2);
    const tasks = heldTasks();
    const call = gate.run([1, 2, 3, 4, 5], tasks.run);
    await settle();
    expect(tasks.started).toEqual([1, 2]);
    tasks.finish(2);
    await settle();
    expect(tasks.started).toEqual([1, 2, 3]);
    for (const task of [1, 3, 4, 5]) {
      tasks.finish(task);
      await settle();
    }
    await expect(call).resolves.toEqual([10, 20, 30, 40, 50]);
    expect(gate.pending).toBe(0);
  });

  it('past its time limit fails the call with LimitError, sends no further task, aborts the signal and counts the call until its tasks return', async () => {
    const gate = new CallGate(activity, 4, 20, 1);
    const tasks = heldTasks();
    const error = await gate.run([1, 2, 3], tasks.run).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ code: 'ner_timeout', details: { limit_ms: 20 } });
    expect(tasks.signals[0]!.aborted).toBe(true);
    expect(gate.pending).toBe(1);
    tasks.finish(1);
    await settle();
    expect(tasks.started).toEqual([1]);
    expect(gate.pending).toBe(0);
  });

  it('refuses a call beyond maxQueue with OverloadedError and admits again once one stops', async () => {
    const gate = new CallGate(activity, 1, 60_000, 1);
    const tasks = heldTasks();
    const first = gate.run([1], tasks.run);
    expect(() => gate.checkCapacity()).toThrow(OverloadedError);
    await expect(gate.run([2], tasks.run)).rejects.toMatchObject({ code: 'ner_queue_full', details: { limit: 1 } });
    expect(tasks.started).toEqual([1]);
    tasks.finish(1);
    await first;
    await settle();
    const second = gate.run([3], tasks.run);
    await settle();
    tasks.finish(3);
    await expect(second).resolves.toEqual([30]);
  });

  it('stops sending a call\'s tasks after one fails, and drains what is admitted', async () => {
    const gate = new CallGate(activity, 4, 60_000, 1);
    let sent = 0;
    const failing = gate.run([1, 2, 3], async (task) => {
      sent++;
      if (task === 1) throw new Error('model process exited');
      return task;
    });
    await expect(failing).rejects.toThrow('model process exited');
    await gate.drain();
    expect(sent).toBe(1);
    expect(gate.pending).toBe(0);
  });
});
