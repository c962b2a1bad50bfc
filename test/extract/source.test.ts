import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../../engine/errors.ts';
import { MAX_SOURCE_BYTES, TextChunks, decodeText, htmlToText, readSource } from '../../engine/extract/source.ts';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'parley-ingest-'));
  root = path.join(base, 'corpora');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await writeFile(path.join(root, 'note.txt'), 'The RSF attacked El Fasher.\r\nSecond line.');
  await writeFile(path.join(root, 'sub', 'brief.md'), '# Brief title\n\nThe *army* said no.');
  await writeFile(path.join(root, 'page.html'), '<html><head><title>Wire &amp; report</title><style>p{color:red}</style><script>var secret = 1;</script></head><body><h1>Headline</h1><p>Troops &amp; tanks entered <b>Goma</b>.</p><p>Second paragraph.</p></body></html>');
  await writeFile(path.join(root, 'binary.txt'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  await writeFile(path.join(root, 'latin1.txt'), Buffer.from('Caf\xe9 statement', 'latin1'));
  await writeFile(path.join(root, 'report.pdf'), '%PDF-1.4');
  await writeFile(path.join(base, 'secret.txt'), 'outside the root');
  await symlink(path.join(base, 'secret.txt'), path.join(root, 'escape.txt'));
  await symlink(path.join(root, 'note.txt'), path.join(root, 'alias.txt'));
  await mkdir(path.join(root, 'folder.txt'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function failure(reference: string): Promise<ParleyError> {
  try {
    await readSource(root, reference);
  } catch (error) {
    expect(error).toBeInstanceOf(ParleyError);
    return error as ParleyError;
  }
  throw new Error(`reading '${reference}' did not fail`);
}

describe('readSource', () => {
  it('reads a text file by relative path, normalising line ends, with its root-relative name', async () => {
    const document = await readSource(root, 'note.txt');
    expect(document).toMatchObject({ source: 'note.txt', format: 'text', text: 'The RSF attacked El Fasher.\nSecond line.', title: 'The RSF attacked El Fasher.' });
  });

  it('reads Markdown as it is, so offsets index the stored text', async () => {
    const document = await readSource(root, 'sub/brief.md');
    expect(document).toMatchObject({ source: 'sub/brief.md', format: 'markdown', title: 'Brief title' });
    expect(document.text).toBe('# Brief title\n\nThe *army* said no.');
  });

  it('accepts file: URLs and absolute paths inside the root, naming them like the relative path', async () => {
    expect((await readSource(root, pathToFileURL(path.join(root, 'sub', 'brief.md')).href)).source).toBe('sub/brief.md');
    expect((await readSource(root, path.join(root, 'note.txt'))).source).toBe('note.txt');
    expect((await readSource(root, './sub/../note.txt')).source).toBe('note.txt');
  });

  it('follows a symlink that stays inside the root', async () => {
    const document = await readSource(root, 'alias.txt');
    expect(document.source).toBe('note.txt');
  });

  it('extracts the text of HTML without scripts or styles, one block per paragraph, with the page title', async () => {
    const document = await readSource(root, 'page.html');
    expect(document.format).toBe('html');
    expect(document.title).toBe('Wire & report');
    expect(document.text).toBe('Headline\n\nTroops & tanks entered Goma.\n\nSecond paragraph.');
    expect(document.text).not.toContain('secret');
    expect(document.text).not.toContain('color');
  });

  it.each([
    ['../secret.txt'],
    ['sub/../../secret.txt'],
    ['/etc/passwd.txt'],
  ])('refuses %s as outside the root', async (reference) => {
    const error = await failure(reference);
    expect(error.code).toBe('source_outside_root');
    expect(error.kind).toBe('validation');
  });

  it('refuses file: URLs outside the root, dot segments and encoded ones included', async () => {
    for (const reference of [pathToFileURL(path.join(base, 'secret.txt')).href, `file://${root}/../secret.txt`, `file://${root}/%2e%2e/secret.txt`]) {
      expect((await failure(reference)).code).toBe('source_outside_root');
    }
    expect((await failure(`file://${root}/..%2Fsecret.txt`)).code).toBe('invalid_source');
  });

  it('treats a percent-encoded relative path literally (no decoding into ../)', async () => {
    const error = await failure('..%2Fsecret.txt');
    expect(error.code).toBe('source_not_found');
  });

  it('refuses a symlink that leads out of the root', async () => {
    const error = await failure('escape.txt');
    expect(error.code).toBe('source_outside_root');
    expect(error.message).toContain('symbolic link');
  });

  it('answers a missing file with source_not_found (404)', async () => {
    const error = await failure('nope.txt');
    expect(error.code).toBe('source_not_found');
    expect(error.kind).toBe('not_found');
  });

  it('refuses binary files, non-UTF-8 text, other formats, directories and NUL characters', async () => {
    expect((await failure('binary.txt')).code).toBe('source_not_text');
    const latin1 = await failure('latin1.txt');
    expect(latin1.code).toBe('source_not_text');
    expect(latin1.message).toContain('UTF-8');
    expect((await failure('report.pdf')).code).toBe('unsupported_source_type');
    expect((await failure('folder.txt')).code).toBe('source_not_file');
    expect((await failure('note\u0000.txt')).code).toBe('invalid_source');
    expect((await failure('https://example.org/a.txt')).code).toBe('unsupported_source');
  });

  it('refuses files over the size limit before reading them', async () => {
    await writeFile(path.join(root, 'huge.txt'), Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x61));
    const error = await failure('huge.txt');
    expect(error.code).toBe('source_too_large');
    expect(error.kind).toBe('too_large');
  });
});

describe('htmlToText', () => {
  it('decodes entities and keeps list items and headings as separate blocks', () => {
    const { text, title } = htmlToText('<body><h2>A</h2><ul><li>x &lt; y</li><li>z</li></ul><noscript>n</noscript></body>');
    expect(title).toBeUndefined();
    expect(text).toBe('A\n\nx < y\n\nz');
  });
});

describe('decodeText', () => {
  /** The same bytes through TextChunks (TextDecoder), the chunked reader's path: its text, or its refusal. */
  const chunked = (bytes: Uint8Array) => {
    try {
      const chunks = new TextChunks('body');
      return chunks.push(bytes) + chunks.end();
    } catch (error) {
      return (error as ParleyError).message;
    }
  };
  const whole = (bytes: Uint8Array) => {
    try {
      return decodeText(bytes, 'body');
    } catch (error) {
      return (error as ParleyError).message;
    }
  };

  it('decodes or refuses exactly as the chunked reader does: BOMs, multi-byte text, invalid and truncated sequences, NULs', () => {
    const cases = [
      Buffer.from('plain ascii'),
      Buffer.from('\ufeffa BOM first, then Genève, 北京 and 🕊'),
      Buffer.from('a BOM \ufeff later stays'),
      Buffer.from(''),
      Buffer.from([0xc3, 0x28]), // a lead byte without its continuation
      Buffer.from([0xe2, 0x82]), // truncated at the end
      Buffer.from([0xc0, 0xaf]), // overlong
      Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
      Buffer.from([0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
      Buffer.from('Caf\xe9 statement', 'latin1'),
      Buffer.from('text\u0000with a NUL'),
    ];
    for (const bytes of cases) expect(whole(bytes)).toBe(chunked(bytes));
    expect(whole(cases[1])).toBe('a BOM first, then Genève, 北京 and 🕊');
    expect(whole(cases[4])).toMatch(/not valid UTF-8/);
    expect(whole(cases[10])).toMatch(/binary/);
  });

  it('decodes a view into a larger buffer by its own bytes only', () => {
    const pool = Buffer.from('before|Genève|after');
    const view = pool.subarray(7, 14);
    expect(decodeText(view, 'body')).toBe('Genève');
    expect(decodeText(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), 'body')).toBe('Genève');
  });
});
