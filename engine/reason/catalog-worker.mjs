// Entry point of the thread that loads the rule modules once at start-up and hands their
// catalog to the main thread as data, so that the main thread never starts a Prolog engine
// (about 90 MB it would hold for the process's life). Plain JavaScript, as worker.mjs is.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { catalogListing, loadRuleModules } = await tsImport('../prolog/framework-loader.ts', import.meta.url);
parentPort.postMessage(catalogListing(await loadRuleModules(workerData.frameworkDirs)));
