// Moving the camera without drawing: how map viewers make a pan cheap. In a GPU-less Chromium a
// frame's cost is compositing the canvases that changed in it (docs/console.md); a pan or a zoom
// that moves a picture already drawn changes none of them.
import type Sigma from 'sigma';
import type { CameraState, MouseCoords } from 'sigma/types';

/** How long the camera stays still before the graph is drawn again where it now is. */
const RESTING_MS = 120;
/** How long after a result's first drawing its picture is taken, unless the camera moves sooner. */
const FIRST_COPY_MS = 1000;

/**
 * The two private parts of sigma (3.x) the console reaches: its own listeners (the camera's render
 * scheduler, the mouse captor's handlers) and its synchronous render (refresh() would index the
 * graph again). Named in one place: a sigma upgrade that changes them is checked here and by the
 * pan's e2e test, and each caller falls back to sigma's own behaviour when a listener is missing.
 */
export function sigmaInternals(renderer: Sigma): {
  activeListeners: Partial<Record<'camera', () => void> & Record<'handleMove' | 'handleDown' | 'handleUp' | 'handleWheel' | 'handleClick', (coords: MouseCoords) => void>> | undefined;
  render(): void;
} {
  return renderer as unknown as ReturnType<typeof sigmaInternals>;
}

export interface MovingPicture {
  /** Whether the camera moved since the last render: sigma's picking buffers then hold what was under the pointer before. */
  readonly displaced: boolean;
  /** Draws the graph where the camera now is if it moved since the last render (before sigma's picking reads its buffers). */
  settle(): void;
}

/**
 * While the camera moves without turning, sigma draws nothing: the picture it drew last is
 * moved and scaled with a CSS transform, a change the compositor makes alone (no WebGL draw, no
 * canvas cleared), while sigma's camera moves as ever, so its coordinates and its next render
 * agree with what is shown. After each render (from a second after the result's first) its
 * layers are copied into one canvas, the picture, so that a pan moves one layer, not six. What a
 * move brings into view stays blank, and a zoom shows the nodes scaled with it, until the camera
 * rests (RESTING_MS after its last move, with the button up) and the graph is drawn again.
 */
export function moveThePictureWhileTheCameraMoves(renderer: Sigma, container: HTMLElement): MovingPicture | undefined {
  const internals = sigmaInternals(renderer);
  // sigma's handler scheduling a render at each camera update
  const scheduleRender = internals.activeListeners?.camera;
  const canvases = renderer.getCanvases();
  const picture = document.createElement('canvas');
  // opaque, so that the compositor draws nothing of the page under it
  const paint = picture.getContext('2d', { alpha: false });
  // a sigma whose internals differ keeps drawing at each move: slower, never a wrong picture
  if (typeof scheduleRender !== 'function' || !canvases.mouse || !paint) return undefined;
  const camera = renderer.getCamera();
  const captor = renderer.getMouseCaptor();
  camera.removeListener('updated', scheduleRender);

  // sigma's layers in their order, under its mouse layer, which takes the pointer and stays put
  const layers = Object.entries(canvases).filter(([id]) => id !== 'mouse').map(([, canvas]) => canvas);
  // the edge labels' layer when they are off: never drawn on, so neither shown nor copied
  const edgeLabelsOff = renderer.getSetting('renderEdgeLabels') ? undefined : canvases.edgeLabels;
  if (edgeLabelsOff) edgeLabelsOff.style.visibility = 'hidden';
  const copied = layers.filter((layer) => layer !== edgeLabelsOff);
  const drawn = document.createElement('div');
  drawn.className = 'graph-layers';
  container.insertBefore(drawn, canvases.mouse);
  drawn.append(...layers);
  picture.className = 'graph-picture';
  picture.setAttribute('aria-hidden', 'true');
  picture.style.visibility = 'hidden';
  container.insertBefore(picture, canvases.mouse);

  /** Copies the layers into the picture: in the task that drew them, while the WebGL layers' buffers still hold it. */
  const takePicture = () => {
    const { width, height } = layers[0];
    if (picture.width !== width || picture.height !== height) {
      picture.width = width;
      picture.height = height;
      picture.style.width = layers[0].style.width;
      picture.style.height = layers[0].style.height;
    }
    paint.fillStyle = getComputedStyle(container).backgroundColor;
    paint.fillRect(0, 0, width, height);
    for (const layer of copied) paint.drawImage(layer, 0, 0);
  };
  const render = () => internals.render();

  let drawnAt: CameraState = camera.getState();
  // a copy costs tens to hundreds of milliseconds on a loaded CPU-drawn page: not of the result's
  // first drawing, which would delay its first paint, but a second later, while the result is read
  // (or at the first move, if sooner), drawing it again
  let copying = false;
  const startCopying = () => {
    if (copying) return;
    copying = true;
    render();
  };
  let displaced = false;
  let rest: ReturnType<typeof setTimeout> | undefined;
  const restLater = () => {
    clearTimeout(rest);
    rest = setTimeout(() => (captor.isMouseDown ? restLater() : scheduleRender()), RESTING_MS);
  };

  renderer.on('beforeRender', () => {
    clearTimeout(rest);
    drawnAt = camera.getState();
    if (!displaced) return;
    displaced = false;
    picture.style.transform = '';
    picture.style.visibility = 'hidden';
    drawn.style.visibility = '';
  });
  renderer.on('afterRender', () => {
    if (copying) takePicture();
  });
  const firstCopy = setTimeout(startCopying, FIRST_COPY_MS);
  renderer.on('kill', () => {
    clearTimeout(rest);
    clearTimeout(firstCopy);
  });
  camera.on('updated', (state: CameraState) => {
    if (state.angle !== drawnAt.angle) {
      scheduleRender();
      return;
    }
    startCopying();
    // the view's corner as drawn, and where the camera now shows that point: the rest follows, scaled
    const corner = renderer.viewportToFramedGraph({ x: 0, y: 0 }, { cameraState: drawnAt });
    const { x, y } = renderer.framedGraphToViewport(corner, { cameraState: state });
    picture.style.transform = `translate(${x}px, ${y}px) scale(${drawnAt.ratio / state.ratio})`;
    if (!displaced) {
      displaced = true;
      picture.style.visibility = '';
      drawn.style.visibility = 'hidden';
    }
    restLater();
  });
  return {
    get displaced() {
      return displaced;
    },
    settle() {
      if (displaced) render();
    },
  };
}
