/**
 * Whether a person can see and reach an input: only those are fields. Editors keep inputs of their
 * own that nobody types into — a focus trap placed at −10000 px with aria-hidden and tabindex=-1,
 * a toolbox search box in a panel at opacity 0, a clipboard catcher off-screen — and listing them
 * would offer the agent a box the person never sees.
 *
 * The rule is pure (`unreachable`, over a plain description); `reachOf` reads an element's, and the
 * page model asks only for candidates that hold an editable (one browser check, one box, a few
 * attributes: no walk over ancestors' styles).
 */

export interface Reach {
  /**
   * The browser's own check (Element.checkVisibility with opacity and visibility): false when it,
   * or an ancestor, is display:none or opacity:0, or it is visibility:hidden (which a child may
   * undo, and then it is shown).
   */
  shown: boolean;
  /** aria-hidden="true" on it or an ancestor: hidden from assistive technology on purpose. */
  ariaHidden: boolean;
  /** inert on it or an ancestor: it cannot be focused or clicked. */
  inert: boolean;
  /** Its border box, in the document's coordinates (scrolling does not move it). */
  box: { left: number; top: number; width: number; height: number };
  /** The tabindex attribute, when it has one. */
  tabIndex: number | null;
  /** A label, aria-label, aria-labelledby, title or placeholder names it to a person. */
  labelled: boolean;
}

/** Why a person cannot see or reach it; null when they can. */
export function unreachable(reach: Reach): string | null {
  const { left, top, width, height } = reach.box;
  if (!reach.shown) return 'not shown';
  if (reach.ariaHidden) return 'aria-hidden';
  if (reach.inert) return 'inert';
  // A point or less (1 × 1 px "visually hidden" boxes); a box zero wide but tall is still there.
  if (width <= 1 && height <= 1) return 'zero size';
  // Left of or above the document: no scrolling brings it into view.
  if (left + width <= 0 || top + height <= 0) return 'off-screen';
  if (reach.tabIndex !== null && reach.tabIndex < 0 && !reach.labelled) return 'out of tab order, no label';
  return null;
}

/** What `unreachable` needs to know of an element, read from the page. */
export function reachOf(element: Element): Reach {
  const view = element.ownerDocument.defaultView;
  const rect = element.getBoundingClientRect();
  const tabIndex = element.getAttribute('tabindex');
  const labels = (element as HTMLInputElement).labels;
  return {
    // The options' names since Chromium 121 and Firefox 122 (the oldest supported are 150 and ESR 140).
    shown: element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    ariaHidden: element.closest('[aria-hidden="true"]') !== null,
    inert: element.closest('[inert]') !== null,
    box: { left: rect.left + (view?.scrollX ?? 0), top: rect.top + (view?.scrollY ?? 0), width: rect.width, height: rect.height },
    tabIndex: tabIndex === null ? null : Number.parseInt(tabIndex, 10),
    labelled: (labels?.length ?? 0) > 0 || ['aria-label', 'aria-labelledby', 'title', 'placeholder'].some((name) => element.hasAttribute(name)),
  };
}

/** A person can see and reach it: what the generic page model names fields after. */
export function isReachable(element: Element): boolean {
  return unreachable(reachOf(element)) === null;
}
