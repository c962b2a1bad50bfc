// The types of heap.mjs, plain JavaScript so that server/start.mjs runs it before anything is compiled.
export function heapSettingMb(env: Record<string, string | undefined>, memoryBytes: number): number;
export function heapGrowingPercent(env: Record<string, string | undefined>): number;
export function flagValue(name: string, execArgv?: string[], nodeOptions?: string): string | undefined;
export function serveWithHeapSetting(): boolean;
