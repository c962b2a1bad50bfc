/**
 * A file replaced whole or not at all: the content goes to a temporary file beside it, which
 * is renamed over it (a rename within a directory is atomic), so a reader or a crash never
 * meets half of it. Each call has a temporary file of its own: two processes (two servers
 * starting on one data dir) or two writes in one never write into each other's.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/** Writes `content` to `file` whole or not at all (`durable`: on disk before the rename, for data a crash must not lose). */
export async function replaceFile(file: string, content: string | Buffer, options: { durable?: boolean } = {}): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(content);
    if (options.durable) await handle.sync();
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => {}); // (closed already when the rename failed)
    await rm(temporary, { force: true });
    throw error;
  }
}
