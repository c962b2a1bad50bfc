// Everything shown comes from documents someone else wrote: labels, quotes and claim texts only
// ever become text nodes. This is the one place elements are made, and it refuses event-handler
// attributes and URLs, so no string from the graph can become markup, script or a link.

type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (/^on/i.test(name) || name === 'href' || name === 'src' || name === 'style') throw new Error(`el(): attribute '${name}' is not allowed`);
    element.setAttribute(name, value);
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

export function clear(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, ...children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page lacks #${id}`);
  return element as T;
}

/** `text` with each occurrence of `quote` in a <mark>, all of it as text nodes. */
export function highlighted(text: string, quote: string | undefined): DocumentFragment {
  const fragment = document.createDocumentFragment();
  if (!quote) {
    append(fragment, text);
    return fragment;
  }
  let at = 0;
  for (let found = text.indexOf(quote); found >= 0; found = text.indexOf(quote, at)) {
    append(fragment, text.slice(at, found), el('mark', {}, quote));
    at = found + quote.length;
  }
  append(fragment, text.slice(at));
  return fragment;
}

/** A JSON value as one line of text (strings as they are). */
export function show(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
