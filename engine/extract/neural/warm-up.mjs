// Entry point of the child process that runs the start-up warm-up sentence through the model
// (backend.ts ProcessRunner). Plain JavaScript, as worker.mjs is.
import { loadModule } from '../../load-module.mjs';

process.once('message', async (task) => {
  try {
    const { default: runNerTask } = await loadModule('./worker-task.ts', import.meta.url);
    process.send({ ok: true, labels: await runNerTask(task) });
  } catch (error) {
    process.send({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
