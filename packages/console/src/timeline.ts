// Events by month, each month's bar split by event type, the dead per month beneath; the events
// per type; a type to show alone; the events listed below, filtered by the map's country.
import { byId, clear, el } from './dom.ts';
import { byMonth, byType, killedIn, MAX_ROWS, typeOf, type EventRow } from './events.ts';

/** The colours of the most frequent types, in that order; the rest share the last. */
const TYPE_COLOURS = ['#1f5fa8', '#b35c00', '#2f7d32', '#7a3e9d', '#00838f', '#8d6e00', '#c2185b', '#6a737d'];
const BAR_PX = 170;
const KILLED_PX = 70;

/** The event type shown alone (null: all), kept while the timeline is redrawn. */
let chosenType: string | null = null;

export function renderTimeline(events: EventRow[], country: string | null, clearCountry: () => void, select: (id: string) => void): void {
  const view = byId('view-timeline');
  const inCountry = country ? events.filter((event) => event.country === country) : events;
  const types = byType(inCountry);
  if (chosenType !== null && !types.some((count) => count.type === chosenType)) chosenType = null;
  const colourOf = new Map(types.map((count, i) => [count.type, TYPE_COLOURS[Math.min(i, TYPE_COLOURS.length - 1)]]));
  const shown = chosenType === null ? inCountry : inCountry.filter((event) => typeOf(event) === chosenType);
  const months = byMonth(shown);
  const most = Math.max(1, ...months.map((month) => month.events.length));
  const mostKilled = Math.max(1, ...months.map((month) => month.fatalities));
  const undated = shown.filter((event) => !event.date).length;
  const killed = killedIn(shown);
  const redraw = () => renderTimeline(events, country, clearCountry, select);

  const typeFilter = el('select', { id: 'event-type', 'aria-label': 'Event type to show' }, el('option', { value: '' }, `all types (${inCountry.length})`), ...types.map((count) => el('option', { value: count.type }, `${count.type} (${count.events})`)));
  typeFilter.value = chosenType ?? '';
  typeFilter.addEventListener('change', () => {
    chosenType = typeFilter.value || null;
    redraw();
    byId('event-type').focus();
  });
  const swatch = (type: string) => {
    const box = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    box.style.background = colourOf.get(type) ?? TYPE_COLOURS[TYPE_COLOURS.length - 1];
    return box;
  };
  const byTypeTable = el(
    'table',
    { class: 'by-type', 'aria-label': 'Events by type' },
    el('thead', {}, el('tr', {}, ...['type', 'events', 'killed'].map((name) => el('th', { scope: 'col' }, name)))),
    el(
      'tbody',
      {},
      ...types.map((count) => {
        const pick = el('button', { type: 'button', class: 'link', 'aria-pressed': String(count.type === chosenType), 'aria-label': `Show only ${count.type} events` }, count.type);
        pick.addEventListener('click', () => {
          chosenType = count.type === chosenType ? null : count.type;
          redraw();
        });
        return el('tr', {}, el('td', {}, swatch(count.type), pick), el('td', {}, count.events), el('td', {}, count.fatalities));
      }),
    ),
  );

  clear(
    view,
    el('h2', {}, 'Timeline of events'),
    country ? el('p', {}, `Only events in ${country} (chosen on the map). `, el('button', { type: 'button', class: 'link', id: 'clear-country' }, 'Show all')) : null,
    el('div', { class: 'timeline-bar' }, el('label', {}, 'Type ', typeFilter), el('span', { class: 'muted' }, `${shown.length} events${events.length > MAX_ROWS ? ` (of the first ${MAX_ROWS} read)` : ''}, ${killed} killed, ${undated} undated`)),
    months.length === 0
      ? el('p', { class: 'muted' }, 'No dated events in the graph at this time.')
      : el(
          'div',
          { class: 'timeline-charts' },
          el(
            'div',
            { class: 'months', role: 'list', 'aria-label': 'Events per month, by type' },
            ...months.map((month) => {
              const split = byType(month.events);
              const stack = el('div', { class: 'stack' }, ...split.map((count) => {
                const part = el('div', { class: 'bar-part', title: `${count.type}: ${count.events}` });
                part.style.height = `${Math.round((count.events / most) * BAR_PX)}px`;
                part.style.background = colourOf.get(count.type)!;
                return part;
              }));
              const parts = split.map((count) => `${count.events} ${count.type}`).join(', ');
              return el('div', { class: 'month', role: 'listitem', title: `${month.month}: ${parts || 'no events'}; ${month.fatalities} killed`, 'aria-label': `${month.month}: ${month.events.length} events${parts ? ` (${parts})` : ''}, ${month.fatalities} killed` }, el('small', {}, month.events.length || ''), stack, el('small', {}, month.month));
            }),
          ),
          el(
            'div',
            { class: 'months killed', role: 'list', 'aria-label': 'Killed per month' },
            ...months.map((month) => {
              const fill = el('div', { class: 'bar-fill deadly' });
              fill.style.height = `${Math.round((month.fatalities / mostKilled) * KILLED_PX)}px`;
              return el('div', { class: 'killed-month', role: 'listitem', 'aria-label': `${month.month}: ${month.fatalities} killed` }, fill, el('small', {}, month.fatalities || ''));
            }),
          ),
          el('p', { class: 'legend' }, el('span', {}, 'above: events per month, coloured by type; below, in red: killed per month')),
        ),
    types.length > 0 ? byTypeTable : null,
    el(
      'table',
      { 'aria-label': 'Events' },
      el('thead', {}, el('tr', {}, ...['date', 'type', 'event', 'place', 'killed'].map((name) => el('th', { scope: 'col' }, name)))),
      el(
        'tbody',
        {},
        ...shown.slice(0, 500).map((event) => {
          const open = el('button', { type: 'button', class: 'link', 'aria-label': `Open event ${event.id}` }, event.label ?? event.id);
          open.addEventListener('click', () => select(event.id));
          return el('tr', {}, el('td', {}, event.date ?? ''), el('td', {}, event.type), el('td', {}, open), el('td', {}, [event.place, event.country].filter(Boolean).join(', ')), el('td', {}, event.fatalities ?? ''));
        }),
      ),
    ),
  );
  document.getElementById('clear-country')?.addEventListener('click', clearCountry);
}
