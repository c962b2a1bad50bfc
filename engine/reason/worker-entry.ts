/**
 * A reasoning worker: consults the rule modules once at start, keeps graph
 * replicas in step with the store (replicas.ts), and runs each task on the replica
 * at the version the task names.
 */
import { loadRuleModules } from '../prolog/framework-loader.ts';
import { ReplicaSet } from './replicas.ts';
import { runTask, type AnswerShaper, type ReasonReply, type ReasonTask, type START_TASK } from './tasks.ts';

export interface WorkerSetup {
  channelName: string;
  frameworkDirs: string[];
  maxGraphs: number;
  /** URL of a module exporting `shapeAnswer` (an AnswerShaper), for query tasks that ask for a shaped answer. */
  answerShaper?: string;
}

export async function startWorker(setup: WorkerSetup, shaper?: AnswerShaper): Promise<(task: ReasonTask | typeof START_TASK) => Promise<ReasonReply | null>> {
  const catalog = await loadRuleModules(setup.frameworkDirs);
  const replicas = new ReplicaSet(setup.channelName, setup.maxGraphs);
  return async (task) => (task.kind === 'start' ? null : runTask(task, await replicas.graph(task.at), catalog, shaper));
}
