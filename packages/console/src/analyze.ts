// analyze (the answer first, the readings below, the quotes they cite one click away) and
// assess (the frameworks ranked by fit, with their conclusions, indicators and evidence).
import type { Analysis, Assessment, Citation } from '@parley/client';
import { byId, clear, el } from './dom.ts';

export type { Analysis, Assessment } from '@parley/client';

function evidenceList(ids: string[], citations: Map<string, Citation>): HTMLElement {
  const details = el('details', {}, el('summary', {}, `Evidence (${ids.length})`));
  details.appendChild(
    el(
      'ul',
      {},
      ...ids.map((id) => {
        const cited = citations.get(id);
        return el('li', {}, el('strong', {}, cited ? `${cited.kind} ${cited.label}` : id), cited?.quote ? el('blockquote', {}, el('mark', {}, cited.quote)) : null, cited?.source ? el('div', { class: 'muted' }, [cited.source, cited.timestamp].filter(Boolean).join(' · ')) : null);
      }),
    ),
  );
  return details;
}

export function renderAnalysis(analysis: Analysis): void {
  const citations = new Map(analysis.citations.map((citation) => [citation.id, citation]));
  clear(
    byId('analysis'),
    el('h3', {}, 'Answer'),
    el('p', { class: 'answer', id: 'answer' }, analysis.answer),
    analysis.disputes.length > 0 ? el('div', {}, el('h4', {}, 'Disputed evidence'), el('ul', {}, ...analysis.disputes.map((dispute) => el('li', {}, dispute.sentence)))) : null,
    el('h3', {}, 'Readings'),
    el('ol', {}, ...analysis.readings.map((reading) => el('li', {}, el('strong', {}, `${reading.name} `), el('span', { class: 'muted' }, `score ${reading.score.toFixed(2)}${reading.applies ? '' : ', does not apply'}`), el('p', {}, reading.summary), evidenceList(reading.evidence, citations)))),
  );
}

export function renderAssessment(assessment: Assessment): void {
  const citations = new Map(assessment.citations.map((citation) => [citation.id, citation]));
  clear(
    byId('analysis'),
    el('h3', {}, 'Frameworks ranked by fit'),
    el(
      'ol',
      { id: 'ranking' },
      ...assessment.assessments.map((run) =>
        el(
          'li',
          {},
          el('strong', {}, `${run.name} `),
          el('span', { class: 'muted' }, `fit ${run.fit.toFixed(2)}, coverage ${run.coverage.toFixed(2)}${run.applies ? '' : ', does not apply'}`),
          el('p', {}, run.error ? `Stopped: ${run.error.message}` : run.explanation),
          run.findings.length > 0 ? el('ul', {}, ...run.findings.slice(0, 10).map((finding) => el('li', {}, finding.statement))) : null,
          el('p', { class: 'muted' }, `Indicators present: ${run.indicators_present.join(', ') || 'none'}; missing: ${run.indicators_missing.join(', ') || 'none'}`),
          evidenceList(run.evidence, citations),
        ),
      ),
    ),
  );
}
