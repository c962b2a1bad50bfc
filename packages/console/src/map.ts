// Places and events on an offline world map: Natural Earth country outlines (world-atlas,
// served beside the bundle), shaded by how many places and events the graph has in each.
// Clicking a country lists what is there and filters the other views (place-filter.ts).
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { FeatureCollection, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { api } from './api.ts';
import { byId, clear, el } from './dom.ts';
import type { EventRow, PlaceRow } from './events.ts';

const SVG = 'http://www.w3.org/2000/svg';
let outlines: Promise<FeatureCollection<Geometry, { name: string }>> | undefined;

function loadOutlines(): Promise<FeatureCollection<Geometry, { name: string }>> {
  outlines ??= api<Topology<{ countries: GeometryCollection<{ name: string }> }>>('GET', '/console/countries-110m.json').then(
    (topology) => feature(topology, topology.objects.countries) as FeatureCollection<Geometry, { name: string }>,
  );
  return outlines;
}

const SHADES = ['#dfe6ee', '#b9d0e8', '#86b0dc', '#4f86c6', '#1f5fa8'];

export async function renderMap(places: PlaceRow[], events: EventRow[], chosen: string | null, choose: (country: string | null, name: string) => void): Promise<void> {
  const view = byId('view-map');
  const world = await loadOutlines();
  const counts = new Map<string, { places: PlaceRow[]; events: EventRow[] }>();
  const entry = (code: string) => counts.get(code) ?? (counts.set(code, { places: [], events: [] }).get(code)!);
  for (const place of places) if (place.country) entry(place.country.toUpperCase()).places.push(place);
  for (const event of events) if (event.country) entry(event.country.toUpperCase()).events.push(event);
  const most = Math.max(1, ...[...counts.values()].map((count) => count.places.length + count.events.length));
  const width = 900;
  const height = 470;
  const projection = geoNaturalEarth1().fitSize([width, height], world);
  const draw = geoPath(projection);
  const names = new Map<string, string>();
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'group');
  svg.setAttribute('aria-label', 'World map: countries shaded by places and events in the graph');
  for (const country of world.features) {
    const code = countries.numericToAlpha2(String(country.id ?? '')) ?? '';
    names.set(code, country.properties.name);
    const here = counts.get(code);
    const total = here ? here.places.length + here.events.length : 0;
    const shape = document.createElementNS(SVG, 'path');
    shape.setAttribute('d', draw(country) ?? '');
    shape.setAttribute('fill', code === chosen ? '#b35c00' : SHADES[total === 0 ? 0 : Math.min(SHADES.length - 1, 1 + Math.floor((total / most) * (SHADES.length - 2)))]);
    shape.setAttribute('data-country', code);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${country.properties.name}: ${here?.places.length ?? 0} places, ${here?.events.length ?? 0} events`;
    shape.appendChild(title);
    if (total > 0) {
      shape.setAttribute('tabindex', '0');
      shape.setAttribute('role', 'button');
      shape.setAttribute('aria-label', title.textContent);
      const pick = () => choose(code === chosen ? null : code, country.properties.name);
      shape.addEventListener('click', pick);
      shape.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          pick();
        }
      });
    }
    svg.appendChild(shape);
  }
  const here = chosen ? counts.get(chosen) : undefined;
  const unplaced = places.filter((place) => !place.country).length;
  clear(
    view,
    el('h2', {}, 'Map of places and events'),
    el(
      'div',
      { class: 'map-box' },
      svg,
      el(
        'div',
        { class: 'map-side' },
        chosen
          ? el('div', {}, el('h3', {}, `${names.get(chosen) ?? chosen} (${chosen})`), el('p', {}, 'The other views show only what is tied to it now: the chip above clears it.'), el('h4', {}, 'Places'), el('ul', {}, ...(here?.places ?? []).map((place) => el('li', {}, `${place.label}${place.type ? ` (${place.type})` : ''}`))), el('h4', {}, 'Events'), el('ul', {}, ...(here?.events ?? []).slice(0, 100).map((event) => el('li', {}, `${event.date ?? 'undated'} ${event.type}: ${event.label ?? event.id}`))))
          : el('p', { class: 'muted' }, 'Click a shaded country (or focus it and press Enter) to list its places and events and filter the other views by it.'),
        el('p', { class: 'muted' }, `${places.length} places, ${counts.size} countries; ${unplaced} places without a country code are not drawn.`),
      ),
    ),
  );
}
