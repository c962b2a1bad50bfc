#!/usr/bin/env node
// The `parley` command: the CLI's TypeScript sources run through tsx. The server `parley serve`
// starts is the compiled one `npm start` runs (@parley/server/start), with tsx's loader turned off
// first: left on, it would cost each of the server's modules a round trip (docs/operations.md: about 1.4 s of a start).
import { register } from 'tsx/esm/api';

const leaveTsx = register();
const { run } = await import('../src/main.ts');
await run(async () => {
  await leaveTsx();
  await import('@parley/server/start');
});
