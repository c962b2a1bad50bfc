/**
 * A reasoning worker: consults the rule modules once at start, keeps graph
 * replicas in step with the store (replicas.ts), and runs each task on the replica
 * at the version the task names. A replica a snapshot has just made is handed to the
 * Prolog engine at once, in the background, so that the first assess of the graph finds
 * its facts there rather than paying for them (the engine holds one view at a time:
 * the latest replica made replaces the view it held).
 */
import { type FrameworkCatalog, loadRuleModules } from '../prolog/framework-loader.ts';
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
  // the replicas before the rule modules: a snapshot another worker asked for while this one
  // starts is kept, and handed to the engine once the modules are loaded
  let toPrepare: string | undefined;
  let engineReady = false;
  let scheduled = false;
  const schedule = () => {
    if (scheduled || !engineReady || toPrepare === undefined) return;
    scheduled = true;
    // after the turn: a task waiting for this replica runs first (and hands the view over itself)
    setImmediate(() => {
      scheduled = false;
      const key = toPrepare!;
      toPrepare = undefined;
      const replica = replicas.held(key);
      if (!replica) return;
      try {
        catalog.registry.prepare({ graph: replica.graph });
      } catch {
        return; // the next task on the graph hands it over again and reports what broke
      }
      replicas.announcePrepared(replica.at);
    });
  };
  const replicas = new ReplicaSet(setup.channelName, setup.maxGraphs, (at) => {
    toPrepare = at.key;
    schedule();
  });
  const catalog: FrameworkCatalog = await loadRuleModules(setup.frameworkDirs);
  engineReady = true;
  schedule();
  return async (task) => (task.kind === 'start' ? null : runTask(task, await replicas.graph(task.at), catalog, shaper));
}
