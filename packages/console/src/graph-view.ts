// The graph result: sigma.js (WebGL) over a graphology graph, so a few thousand nodes pan
// smoothly. Positions are deterministic: a circle by id order, then a bounded ForceAtlas2.
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import { clear, el } from './dom.ts';
import { moveThePictureWhileTheCameraMoves, sigmaInternals, type MovingPicture } from './graph-pan.ts';
import type { Shown } from './model.ts';

/** Colours by kind (and actor type for actors): the legend the inspector's heading repeats. */
const KIND_COLOURS: Record<string, string> = {
  Actor: '#1f5fa8',
  Claim: '#b35c00',
  Event: '#a8321f',
  Location: '#2f7d32',
  Issue: '#7a3e9d',
  Interest: '#00838f',
  Document: '#6a737d',
};
const ACTOR_TYPE_COLOURS: Record<string, string> = {
  armed_group: '#0d3b78',
  armed_forces: '#2c4f9e',
  state: '#4a7cc9',
  government: '#4a7cc9',
  international_org: '#5b9bd5',
  individual: '#3d6fb3',
};

function colourOf(kind: string, properties: Record<string, unknown>): string {
  if (kind === 'Actor' && typeof properties.actor_type === 'string') return ACTOR_TYPE_COLOURS[properties.actor_type] ?? KIND_COLOURS.Actor;
  return KIND_COLOURS[kind] ?? '#888';
}

/** How many ForceAtlas2 iterations a graph of this size gets: the layout stays within about a second. */
function layoutIterations(order: number): number {
  if (order <= 1) return 0;
  return order <= 300 ? 200 : order <= 1000 ? 60 : 25;
}

export interface GraphView {
  show(shown: Shown): void;
  /** Pans by a fraction of the view (keyboard, and the bench's panning). */
  pan(dx: number, dy: number): void;
  /** Redraws at the container's size (after its tab is shown again). */
  refresh(): void;
}

/** What the colours of the nodes shown stand for: each kind, and each actor type among the actors. */
function legendOf(shown: Shown): { name: string; colour: string }[] {
  const entries = new Map<string, string>();
  for (const node of shown.nodes) {
    const type = node.kind === 'Actor' && typeof node.properties.actor_type === 'string' && ACTOR_TYPE_COLOURS[node.properties.actor_type] ? `Actor (${node.properties.actor_type})` : node.kind;
    entries.set(type, colourOf(node.kind, node.properties));
  }
  return [...entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, colour]) => ({ name, colour }));
}

export function createGraphView(container: HTMLElement, onSelect: (selection: { node: string } | { edge: string }) => void): GraphView {
  let renderer: Sigma | undefined;
  const legend = el('ul', { class: 'graph-legend', 'aria-label': 'Colours of the graph' });
  // arrow keys pan, + and - zoom: the canvas is a focusable region
  container.tabIndex = 0;
  container.setAttribute('aria-label', 'Graph of the result: arrow keys pan, + and - zoom; the table lists the same records');
  container.addEventListener('keydown', (event) => {
    const step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[event.key];
    if (step) {
      view.pan(step[0], step[1]);
      event.preventDefault();
    } else if (event.key === '+' || event.key === '-') {
      const camera = renderer?.getCamera();
      if (camera) void (event.key === '+' ? camera.animatedZoom() : camera.animatedUnzoom());
    }
  });
  const view: GraphView = {
    show(shown) {
      renderer?.kill();
      const graph = new Graph({ multi: true, type: 'directed' });
      const count = shown.nodes.length;
      shown.nodes.forEach((node, i) => {
        const angle = (2 * Math.PI * i) / Math.max(count, 1);
        graph.addNode(node.id, {
          label: node.label.length > 60 ? `${node.label.slice(0, 57)}…` : node.label,
          x: Math.cos(angle) * 100,
          y: Math.sin(angle) * 100,
          size: node.kind === 'Actor' ? 7 : 5,
          color: colourOf(node.kind, node.properties),
        });
      });
      // thick enough to hit: sigma picks edges on a half-resolution buffer
      const edgeSize = count <= 200 ? 3 : 1.5;
      for (const edge of shown.edges) graph.addEdgeWithKey(edge.id, edge.from, edge.to, { label: edge.type, size: edgeSize, color: '#9aa5b1', type: 'arrow' });
      const iterations = layoutIterations(count);
      if (iterations > 0 && shown.edges.length > 0) forceAtlas2.assign(graph, { iterations, settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: count > 300 } });
      renderer = new Sigma(graph, container, { renderEdgeLabels: count <= 200, enableEdgeEvents: true, allowInvalidContainer: true, defaultEdgeType: 'arrow', labelRenderedSizeThreshold: count > 500 ? 12 : 4 });
      pickOnlyWhenNeeded(renderer, moveThePictureWhileTheCameraMoves(renderer, container));
      // over the canvases, inside their box: appended again since killing a renderer empties the container
      container.appendChild(legend);
      clear(legend, ...legendOf(shown).map(({ name, colour }) => {
        const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
        swatch.style.background = colour;
        return el('li', {}, swatch, name);
      }));
      renderer.on('clickNode', ({ node }) => onSelect({ node }));
      renderer.on('clickEdge', ({ edge }) => onSelect({ edge }));
      renderer.on('enterEdge', () => container.classList.add('pointing'));
      renderer.on('leaveEdge', () => container.classList.remove('pointing'));
    },
    pan(dx, dy) {
      const camera = renderer?.getCamera();
      if (!camera) return;
      const state = camera.getState();
      camera.setState({ x: state.x + dx * state.ratio, y: state.y + dy * state.ratio });
    },
    refresh() {
      renderer?.resize();
      renderer?.refresh();
    },
  };
  return view;
}

/**
 * Sigma looks for the node and the edge under the pointer at every mouse move, button press and
 * release and wheel turn, reading its picking buffers back (gl.readPixels), which waits for the
 * GPU to finish drawing: a stall at each, and while a large graph is dragged, frames of half a
 * second (bench/console.ts). Only clicks and hovering need it: the press, release and wheel
 * look-ups (for events the console does not listen to) go, and the hover look-up waits while the
 * button is down, since nothing is hovered while the graph is dragged.
 */
function pickOnlyWhenNeeded(renderer: Sigma, picture: MovingPicture | undefined): void {
  const captor = renderer.getMouseCaptor();
  // sigma's own handlers, each the one listener it adds to the captor's event
  const listeners = sigmaInternals(renderer).activeListeners;
  // a sigma whose internals differ keeps its own handlers: slower panning, never a broken view
  const { handleMove, handleDown, handleUp, handleWheel, handleClick } = listeners ?? {};
  if (typeof handleMove !== 'function' || typeof handleDown !== 'function' || typeof handleUp !== 'function' || typeof handleWheel !== 'function' || typeof handleClick !== 'function') return;
  captor.removeListener('mousedown', handleDown);
  captor.removeListener('mouseup', handleUp);
  captor.removeListener('wheel', handleWheel);
  captor.removeListener('mousemove', handleMove);
  captor.removeListener('click', handleClick);
  // while the picture is moved the buffers lag behind it: hovering waits for the redraw at rest, a click draws first
  captor.on('mousemove', (coords) => {
    if (!captor.isMouseDown && !picture?.displaced) handleMove(coords);
  });
  captor.on('click', (coords) => {
    picture?.settle();
    handleClick(coords);
  });
}
