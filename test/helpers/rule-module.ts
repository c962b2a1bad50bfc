import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A third-party framework folder `modules/<id>` under `dir`, reading actors, with these rules after its indicator and `present/2`; returns the folder. */
export async function writeModule(dir: string, id: string, rules: string[]): Promise<string> {
  const folder = path.join(dir, 'modules', id);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'manifest.json'), JSON.stringify({
    id, name: id, citation: 'none', question: 'Is anyone there?', version: '1.0.0', reads: { nodes: ['Actor'], edges: [] }, answers: ['escalation'],
  }));
  await writeFile(path.join(folder, 'README.md'), `# ${id}\n\nA module written by a test.`);
  await writeFile(path.join(folder, 'rules.pl'), ["indicator(actors, 1, 'actors').", "present(actors, Ids) :- nodes_where('Actor', _, _, Ids), Ids \\== [].", ...rules].join('\n'));
  return folder;
}
