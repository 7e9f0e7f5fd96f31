/**
 * An id for this page instance. A page restored from the back/forward cache keeps its documentId,
 * but it is not the page a handle was bound to any more (the person left it and came back), so
 * the id changes on every trusted `pageshow` that restores from the cache.
 */
import { newId } from '../shared/ids.ts';

let current = newId('pg', 9);

export function pageInstance(): string {
  return current;
}

export function watchPageInstance(): void {
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.isTrusted && event.persisted) current = newId('pg', 9);
    },
    { capture: true },
  );
}
