// Entry point of the child process that loads the rule modules once at start-up and hands their
// catalog to the server as data, so that the server never starts a Prolog engine outside its
// reasoning workers. A process rather than a worker thread: a thread that has run the engine
// leaves about 60 MB behind in the process when it ends (measured), a process leaves nothing.
// Plain JavaScript, as engine/reason/worker.mjs is.
import { loadModule } from '../load-module.mjs';

const { catalogListing, loadRuleModules } = await loadModule('./loader.ts', import.meta.url);
const listing = catalogListing(await loadRuleModules(JSON.parse(process.argv[2])));
process.send(listing, () => process.disconnect());
