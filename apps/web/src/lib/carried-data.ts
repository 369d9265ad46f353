/**
 * Data the server carries in the page's HTML (docs/web.md, "First page"): the
 * `<script type="application/json">` with this id, parsed. It is taken out of the document at
 * the first read, whatever it holds, so it stands only for the page's start and never goes
 * stale. Undefined when it is missing, refused by `accepts` (asked before parsing) or not JSON:
 * the caller then asks the server.
 */
export function takeCarriedData(id: string, accepts?: (element: Element) => boolean): unknown {
  if (typeof document === 'undefined') return undefined;
  const element = document.getElementById(id);
  if (!element) return undefined;
  element.remove();
  if (accepts && !accepts(element)) return undefined;
  try {
    return JSON.parse(element.textContent ?? '');
  } catch {
    return undefined;
  }
}
