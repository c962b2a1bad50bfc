import { isUtf8 } from 'node:buffer';
import { realpath, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseHtml } from 'node-html-parser';
import { NotFoundError, TooLargeError, ValidationError } from '../errors.ts';

/**
 * Stage 1 (ingest reads with it; a symbolic worker reads a batch's files with it too): a document reference → the document's text. A reference is a
 * path relative to the corpora root, an absolute path inside it, or a `file:` URL
 * inside it; anything that resolves outside the root (`..`, absolute paths, symlinks
 * pointing out) is refused before the file is opened. Only text formats are read, and
 * only valid UTF-8.
 *
 * Offsets: provenance spans index the text this module returns. For `.txt` and `.md`
 * that is the file's content as is (Markdown markup is kept, so offsets into the
 * file and into the stored text agree); for HTML it is the extracted text.
 */

/** Largest source file read, in bytes (TooLargeError beyond): bounds memory before decoding. */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

export const SUPPORTED_EXTENSIONS = ['.txt', '.md', '.html', '.htm'] as const;
export const SOURCE_FORMATS = ['text', 'markdown', 'html'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

const FORMAT_OF: Record<(typeof SUPPORTED_EXTENSIONS)[number], SourceFormat> = {
  '.txt': 'text',
  '.md': 'markdown',
  '.html': 'html',
  '.htm': 'html',
};

export interface ResolvedSource {
  /** The real path of the file. */
  absolute: string;
  /** Its path relative to the corpora root, with '/' separators: the document's source name. */
  relative: string;
  format: SourceFormat;
}

export interface SourceDocument {
  /** The source name provenance records carry: the path under the corpora root. */
  source: string;
  text: string;
  format: SourceFormat;
  title?: string;
  bytes: number;
}

function refuse(reference: string, why: string): never {
  throw new ValidationError('source_outside_root', `source '${reference}' ${why}: only files under the corpora root can be ingested`, { source: reference });
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '' || path.isAbsolute(relative)) return false;
  // "..name.txt" is a file inside; only a whole ".." segment leads out.
  return relative !== '..' && !relative.startsWith('..' + path.sep);
}

/** Where a reference points, checked against the corpora root (lexically, then again after following symlinks). */
export async function resolveSource(corporaDir: string, reference: string): Promise<ResolvedSource> {
  if (typeof reference !== 'string' || reference.trim() === '') throw new ValidationError('invalid_source', 'source must be a non-empty document reference', { field: 'source' });
  if (reference.includes('\u0000')) throw new ValidationError('invalid_source', 'source must not contain NUL characters', { field: 'source' });

  let requested: string;
  if (/^file:/i.test(reference)) {
    try {
      requested = fileURLToPath(new URL(reference));
    } catch (error) {
      throw new ValidationError('invalid_source', `source '${reference}' is not a valid file: URL (${(error as Error).message})`, { field: 'source' });
    }
  } else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(reference)) {
    throw new ValidationError('unsupported_source', `source '${reference}': only paths under the corpora root and file: URLs can be ingested; send other documents inline as text`, { field: 'source' });
  } else {
    requested = path.resolve(corporaDir, reference);
  }
  const root = path.resolve(corporaDir);
  if (!isInside(root, requested)) refuse(reference, 'is outside the corpora root');

  const extension = path.extname(requested).toLowerCase();
  if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new ValidationError('unsupported_source_type', `source '${reference}': only ${SUPPORTED_EXTENSIONS.join(', ')} files can be ingested`, { source: reference });
  }

  let absolute: string;
  let realRoot: string;
  try {
    realRoot = await realpath(root);
    absolute = await realpath(requested);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new NotFoundError('source', reference);
    }
    throw error;
  }
  if (!isInside(realRoot, absolute)) refuse(reference, 'leads outside the corpora root through a symbolic link');
  return {
    absolute,
    relative: path.relative(realRoot, absolute).split(path.sep).join('/'),
    format: FORMAT_OF[extension as keyof typeof FORMAT_OF],
  };
}

/**
 * UTF-8 text or a clear refusal: NUL bytes mean binary, invalid sequences mean another encoding.
 * Checked and decoded without a TextDecoder, whose making was most of a small request body's cost.
 */
export function decodeText(bytes: Uint8Array, name: string): string {
  if (bytes.includes(0)) throw binarySource(name);
  if (!isUtf8(bytes)) throw notUtf8(name);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // a byte order mark is dropped, as TextDecoder drops it
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function binarySource(name: string): ValidationError {
  return new ValidationError('source_not_text', `source '${name}' is binary (it contains NUL bytes), not a text document`, { source: name });
}

function notUtf8(name: string): ValidationError {
  return new ValidationError('source_not_text', `source '${name}' is not valid UTF-8 text; convert it to UTF-8 first`, { source: name });
}

/**
 * decodeText for bytes that arrive in chunks, each decoded as it comes (a character may
 * span two chunks): a large request body costs its reader a little per chunk instead of
 * one long step at the end (10 MB took 15–30 ms). The refusals are decodeText's.
 */
export class TextChunks {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

  constructor(private readonly name: string) {}

  push(bytes: Uint8Array): string {
    if (bytes.includes(0)) throw binarySource(this.name);
    return this.decode(bytes, true);
  }

  end(): string {
    return this.decode(undefined, false);
  }

  private decode(bytes: Uint8Array | undefined, stream: boolean): string {
    try {
      return this.decoder.decode(bytes, { stream });
    } catch {
      throw notUtf8(this.name);
    }
  }
}

/** Elements whose content is never document text. */
const NON_TEXT_ELEMENTS = 'script, style, noscript, template, svg, head';

/** The readable text of an HTML page, one line per block element, and its title. */
export function htmlToText(html: string): { text: string; title?: string } {
  const root = parseHtml(html, { comment: false, blockTextElements: { script: true, style: true, noscript: true, pre: true } });
  const title = root.querySelector('title')?.text.replace(/\s+/g, ' ').trim() || undefined;
  for (const element of root.querySelectorAll(NON_TEXT_ELEMENTS)) element.remove();
  const body = root.querySelector('body') ?? root;
  const text = body.structuredText
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n\n');
  return { text, ...(title ? { title } : {}) };
}

/** The first Markdown heading or the first line of plain text, as a document title. */
function titleOf(text: string, format: SourceFormat): string | undefined {
  const firstLine = text.split('\n').find((line) => line.trim() !== '')?.trim();
  if (!firstLine) return undefined;
  const title = format === 'markdown' ? firstLine.replace(/^#+\s*/, '') : firstLine;
  return title.length <= 200 ? title : undefined;
}

/** Reads a document under the corpora root: resolved, size-checked, decoded, and converted to text. */
export async function readSource(corporaDir: string, reference: string): Promise<SourceDocument> {
  const resolved = await resolveSource(corporaDir, reference);
  const info = await stat(resolved.absolute);
  if (!info.isFile()) throw new ValidationError('source_not_file', `source '${reference}' is not a regular file`, { source: reference });
  if (info.size > MAX_SOURCE_BYTES) {
    throw new TooLargeError('source_too_large', `source '${reference}' is ${info.size} bytes; the limit is ${MAX_SOURCE_BYTES}`, { source: reference, limit: MAX_SOURCE_BYTES });
  }
  const bytes = await readFile(resolved.absolute);
  const decoded = decodeText(bytes, reference);
  if (resolved.format === 'html') {
    const { text, title } = htmlToText(decoded);
    return { source: resolved.relative, text, format: 'html', bytes: bytes.length, ...(title ? { title } : {}) };
  }
  const text = decoded.replace(/\r\n?/g, '\n');
  const title = titleOf(text, resolved.format);
  return { source: resolved.relative, text, format: resolved.format, bytes: bytes.length, ...(title ? { title } : {}) };
}
