// A graph whose texts try to become markup: the console must show them as written.
export const HOSTILE = {
  actor: '<img src=x onerror=alert("actor")>',
  claim: 'The army said: <script>alert("claim")</script> see [proof](javascript:alert("link")) **now** &lt;b&gt;',
  quote: 'the RSF fought the army <img src=x onerror=alert("quote")> near <a href="javascript:alert(1)">Khartoum</a>',
  event: 'shelling of the market <b onmouseover=alert("event")>x</b>',
  /** The two parties of a second conflict: its name, in the trajectory, is made of theirs. */
  party: '<script>alert("party")</script> Militia',
  otherParty: '[Guards](javascript:alert("party"))',
  raid: 'raid on the <b onclick=alert("raid")>village</b>',
};

/** The same tricks in a document extraction reads (ingest), so its quotes carry them too. */
export const HOSTILE_DOCUMENT = [
  'On 3 March 2024 the Rapid Support Forces attacked El Fasher <script>alert("doc")</script>.',
  'General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire <img src=x onerror=alert("doc2")> that leaves the RSF in the cities.',
  'A statement read: [click here](javascript:alert("doc3")) and <iframe src="javascript:alert(4)"></iframe>.',
].join(' ');

/** The seeded graph: two armies opposed, a claim, two events in Khartoum, the hostile actor, and a second conflict of hostile names. */
export function seedGraph() {
  const source = (quote: string, day: string) => ({ source: 'report-1', timestamp: `${day}T00:00:00Z`, quote, span: { start: 0, end: quote.length }, document_id: 'doc-report-1' });
  return {
    nodes: [
      { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', role: 'party', actor_type: 'armed_group', confidence: 0.9 },
      { kind: 'Actor', id: 'saf', label: 'Sudanese Armed Forces', role: 'party', actor_type: 'armed_forces', confidence: 0.9 },
      { kind: 'Actor', id: 'hostile', label: HOSTILE.actor, role: 'observer', actor_type: 'individual', confidence: 0.4 },
      { kind: 'Claim', id: 'c1', type: 'Accusation', text: HOSTILE.claim, provenance: source(HOSTILE.claim, '2024-03-04') },
      { kind: 'Location', id: 'khartoum', label: 'Khartoum', location_type: 'city', country_code: 'SD' },
      { kind: 'Event', id: 'e1', event_type: 'ASSAULT', date: '2024-03-03', label: HOSTILE.event, fatalities: 12, provenance: source(HOSTILE.event, '2024-03-03') },
      { kind: 'Event', id: 'e2', event_type: 'PROTEST', date: '2024-05-10', label: 'march in Khartoum', size: 300 },
      { kind: 'Event', id: 'e3', event_type: 'ASSAULT', date: '2024-04-20', label: 'attack on El Fasher', fatalities: 3 },
      { kind: 'Actor', id: 'militia', label: HOSTILE.party, role: 'party', actor_type: 'armed_group', confidence: 0.9 },
      { kind: 'Actor', id: 'guards', label: HOSTILE.otherParty, role: 'party', actor_type: 'armed_group', confidence: 0.9 },
      { kind: 'Event', id: 'e4', event_type: 'ASSAULT', date: '2024-04-02', label: HOSTILE.raid, fatalities: 5 },
    ],
    edges: [
      { type: 'OPPOSES', id: 'fight', from: 'rsf', to: 'saf', confidence: 0.9, provenance: source(HOSTILE.quote, '2024-03-03') },
      { type: 'ASSERTS', from: 'saf', to: 'c1', confidence: 0.8 },
      { type: 'TARGETS', from: 'c1', to: 'rsf' },
      { type: 'OCCURRED_AT', from: 'e1', to: 'khartoum' },
      { type: 'OCCURRED_AT', from: 'e2', to: 'khartoum' },
      { type: 'PARTICIPATES_IN', from: 'rsf', to: 'e1' },
      { type: 'PARTICIPATES_IN', from: 'hostile', to: 'e2', confidence: 0.3 },
      { type: 'PARTICIPATES_IN', from: 'militia', to: 'e4' },
      { type: 'PARTICIPATES_IN', from: 'guards', to: 'e4' },
    ],
  };
}
