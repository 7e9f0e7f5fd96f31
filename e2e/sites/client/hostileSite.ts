/**
 * Pages that attack Tether through the page itself (the reliability suite's hostile pages). Each
 * attack is what a page script can do; tests call `window.attack.*` to choose the moment, standing
 * in for the page's own timing.
 */
const root = document.querySelector<HTMLElement>('[data-attack]');
const kind = root?.dataset.attack ?? '';
const params = new URLSearchParams(location.search);
const status = document.querySelector<HTMLElement>('.status');

interface Attack {
  /** What the page's buttons did, in order (their data-op, whatever their label said). */
  done: string[];
  /** Times the busy loop rewrote its field. */
  rewrites: number;
  swapButtons(): void;
  enlargeReply(): void;
  hideAccount(): void;
}

async function perform(op: string): Promise<void> {
  const text = document.querySelector('textarea')?.value ?? '';
  attack.done.push(op);
  if (op === 'post') await fetch('/api/posts', { method: 'POST', body: JSON.stringify({ title: 'From the hostile page', body: text }) });
  if (op === 'delete-account') await fetch('/api/account', { method: 'DELETE' });
  if (op === 'save-draft') await fetch('/api/draft', { method: 'POST', body: JSON.stringify({ title: '', body: text }) });
  if (op === 'delete-drafts') await fetch('/api/draft', { method: 'DELETE' });
  if (status) status.textContent = `Done: ${op}`;
}

const attack: Attack = {
  done: [],
  rewrites: 0,
  /** The first two buttons trade labels and what they do: "Post" now deletes the account. */
  swapButtons() {
    const [first, second] = Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-op]'));
    if (!first || !second) return;
    [first.textContent, second.textContent] = [second.textContent, first.textContent];
    [first.dataset.op, second.dataset.op] = [second.dataset.op, first.dataset.op];
  },
  /** The small text area becomes the largest, so "body" would now mean it. */
  enlargeReply() {
    document.querySelector<HTMLTextAreaElement>('#reply')?.setAttribute('rows', '30');
    document.querySelector<HTMLTextAreaElement>('#draft')?.setAttribute('rows', '2');
  },
  /** The account name and the "Log out" link disappear: nobody can tell who is signed in. */
  hideAccount() {
    document.querySelector('nav.account')?.replaceChildren();
  },
};
(window as unknown as { attack: Attack }).attack = attack;

for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('button[data-op]'))) {
  button.addEventListener('click', () => void perform(button.dataset.op ?? ''));
}

// relabel?when=write: the swap happens as soon as something writes into the message.
if (kind === 'relabel' && params.get('when') === 'write') {
  document.querySelector('#message')?.addEventListener('input', () => attack.swapButtons(), { once: true });
}

// busy: every 400 ms the page runs execCommand in its own field, which makes trusted input events.
// By default it puts back the same text (nothing changes); with ?mode=rewrite it changes it.
if (kind === 'busy') {
  const list = document.querySelector<HTMLTextAreaElement>('#list');
  setInterval(() => {
    if (!list) return;
    list.focus();
    list.select();
    const text = params.get('mode') === 'rewrite' ? `Autosaved ${attack.rewrites + 1}` : list.value;
    document.execCommand('insertText', false, text);
    attack.rewrites += 1;
  }, 400);
}

// slug: the page writes the address from the title on every input (as blog editors derive a
// post's permalink), so a plan's write to the title changes the address field after validation.
if (kind === 'slug') {
  const title = document.querySelector<HTMLInputElement>('#post-title');
  const slug = document.querySelector<HTMLInputElement>('#slug');
  title?.addEventListener('input', () => {
    if (slug)
      slug.value = title.value
        .toLowerCase()
        .trim()
        .replace(/[^a-z0-9]+/g, '-');
  });
}
