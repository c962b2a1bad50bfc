import { findConflictEntities } from '../engine/extract/symbolic/index.ts';
const texts = process.argv.slice(2);
for (const text of texts) {
  const f = findConflictEntities({ text, source: 'probe', document_date: '2024-05-01' });
  console.log('##', text);
  console.log('  actors:', f.actors.map((a) => `${a.text}[${a.actor_type}${a.canonical ? '=' + a.canonical : ''}]`).join(' | '));
  console.log('  places:', f.locations.map((a) => `${a.text}[${a.location_type}]`).join(' | '));
  console.log('  claims:', f.claims.map((c) => `${c.type}:${text.slice(c.cue.start, c.cue.end)} by ${c.speaker ? text.slice(c.speaker.start, c.speaker.end) : '-'}`).join(' | '));
  console.log('  events:', f.events.map((e) => `${e.event_type}:${text.slice(e.trigger.start, e.trigger.end)}@${e.location ? text.slice(e.location.start, e.location.end) : '-'}`).join(' | '));
  console.log('  rels:', f.relations.map((r) => `${r.type} ${text.slice(r.from.start, r.from.end)}->${text.slice(r.to.start, r.to.end)}`).join(' | '));
}
