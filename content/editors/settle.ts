/**
 * Waiting for an editor to take a write, without blind sleeps. Editors reconcile asynchronously
 * (Lexical in a microtask, React-based Slate and Draft.js on the scheduler's next task, CKEditor 5
 * and ProseMirror at once): a write is done when its result reads back, or when the editor has
 * stopped changing the DOM for a short while, within a deadline. Turns are MessageChannel tasks,
 * which background tabs do not throttle (unlike timers and animation frames).
 */

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Resolves true as soon as `done()` holds; false once the DOM under `targets` is quiet or the deadline passes. */
export async function settle(targets: Node[], done: () => boolean, options: { quietMs?: number; deadlineMs?: number } = {}): Promise<boolean> {
  const quietMs = options.quietMs ?? 150;
  const deadlineMs = options.deadlineMs ?? 3000;
  const started = performance.now();
  let lastChange = started;
  const observer = new MutationObserver(() => {
    lastChange = performance.now();
  });
  for (const target of targets) observer.observe(target, { childList: true, subtree: true, characterData: true, attributes: true });
  try {
    for (;;) {
      if (done()) return true;
      const now = performance.now();
      if (now - lastChange > quietMs || now - started > deadlineMs) return done();
      await nextTurn();
    }
  } finally {
    observer.disconnect();
  }
}

/**
 * Moves the selection and waits until the page has seen it (`selectionchange`): editors with their
 * own model (CKEditor 5, Lexical, Draft.js, ProseMirror, CodeMirror) copy the DOM selection into
 * it on that event, and insert where their model's selection is.
 */
export async function selectAndSync(doc: Document, apply: () => void, deadlineMs = 500): Promise<void> {
  let seen = false;
  const listener = () => {
    seen = true;
  };
  doc.addEventListener('selectionchange', listener);
  try {
    const before = rangeKey(doc);
    apply();
    if (rangeKey(doc) === before) return;
    const started = performance.now();
    while (!seen && performance.now() - started < deadlineMs) await nextTurn();
    // The page's own listeners ran in the same dispatch; let what they scheduled run too.
    await nextTurn();
  } finally {
    doc.removeEventListener('selectionchange', listener);
  }
}

function rangeKey(doc: Document): string {
  const selection = doc.getSelection();
  if (!selection || selection.rangeCount === 0) return '';
  const range = selection.getRangeAt(0);
  return [nodeKey(range.startContainer), range.startOffset, nodeKey(range.endContainer), range.endOffset].join(':');
}

const nodeIds = new WeakMap<Node, number>();
let nextNodeId = 1;
function nodeKey(node: Node): number {
  let id = nodeIds.get(node);
  if (id === undefined) {
    id = nextNodeId++;
    nodeIds.set(node, id);
  }
  return id;
}

/**
 * Waits until `check` answers (on every change under `root`, and at least every 100 ms, as
 * uploads finish off the page's main thread), or the limit passes (then `check`'s last answer).
 */
export function waitUntil<T>(root: Node, check: () => T | null, limitMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: T | null) => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearInterval(timer);
      clearTimeout(deadline);
      resolve(value);
    };
    const look = () => {
      const found = check();
      if (found !== null) finish(found);
    };
    const observer = new MutationObserver(look);
    observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
    const timer = setInterval(look, 100);
    const deadline = setTimeout(() => finish(check()), limitMs);
    look();
  });
}
