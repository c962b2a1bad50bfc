export { Parley, type ParleyOptions, type CallOptions } from './client.ts';
export { ParleyError, ParleyQueryError, ParleyConnectionError, ParleyTimeoutError } from './errors.ts';
export type * from './types.ts';
