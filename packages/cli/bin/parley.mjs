#!/usr/bin/env node
// The `parley` command: runs the TypeScript sources through tsx, as `npm start` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
