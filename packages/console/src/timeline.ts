// Events by month (count and fatalities), the events listed below, filtered by the map's country.
import { byId, clear, el } from './dom.ts';
import { byMonth, MAX_ROWS, type EventRow } from './events.ts';

export function renderTimeline(events: EventRow[], country: string | null, clearCountry: () => void, select: (id: string) => void): void {
  const view = byId('view-timeline');
  const shown = country ? events.filter((event) => event.country === country) : events;
  const months = byMonth(shown);
  const most = Math.max(1, ...months.map((month) => month.events.length));
  const undated = shown.filter((event) => !event.date).length;
  clear(
    view,
    el('h2', {}, 'Timeline of events'),
    country ? el('p', {}, `Only events in ${country} (chosen on the map). `, el('button', { type: 'button', class: 'link', id: 'clear-country' }, 'Show all')) : null,
    el('p', { class: 'legend' }, el('span', {}, `${shown.length} events${events.length > MAX_ROWS ? ` (the first ${MAX_ROWS})` : ''}`), el('span', {}, `${undated} undated`), el('span', {}, 'bar height: events per month; red: a month with fatalities')),
    months.length === 0
      ? el('p', { class: 'muted' }, 'No dated events in the graph at this time.')
      : el(
          'div',
          { class: 'months', role: 'list', 'aria-label': 'Events per month' },
          ...months.map((month) => {
            const fill = el('div', { class: month.fatalities > 0 ? 'bar-fill deadly' : 'bar-fill' });
            fill.style.height = `${Math.round((month.events.length / most) * 170)}px`;
            const types = [...new Set(month.events.map((event) => event.type))].sort().join(', ');
            return el('div', { class: 'month', role: 'listitem', title: `${month.month}: ${month.events.length} events (${types || 'none'}), ${month.fatalities} killed`, 'aria-label': `${month.month}: ${month.events.length} events, ${month.fatalities} killed` }, el('small', {}, month.events.length || ''), fill, el('small', {}, month.month));
          }),
        ),
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
