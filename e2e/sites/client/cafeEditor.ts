/** The cafe's write form: temporary saves (the cafe's autosave) and registering a post. */
const subject = document.querySelector<HTMLInputElement>('#subject');
const content = document.querySelector<HTMLTextAreaElement>('#content');
const board = document.querySelector<HTMLSelectElement>('#board');
const notice = document.querySelector<HTMLElement>('.temp-saved-notice');
const status = document.querySelector<HTMLElement>('.status');

interface Draft {
  title: string;
  body: string;
}
let saved: Draft | null = null;

async function loadTemp(): Promise<void> {
  const response = await fetch('/api/draft', { cache: 'no-store' });
  if (response.status !== 200) return;
  saved = (await response.json()) as Draft;
  if (notice && content?.value === '' && subject?.value === '') notice.hidden = false;
}

document.querySelector('#load-temp')?.addEventListener('click', () => {
  if (!saved || !subject || !content || !notice) return;
  subject.value = saved.title;
  content.value = saved.body;
  notice.hidden = true;
});
document.querySelector('#drop-temp')?.addEventListener('click', () => {
  void fetch('/api/draft', { method: 'DELETE' }).then(() => {
    if (notice) notice.hidden = true;
  });
});
document.querySelector('#temp-save-button')?.addEventListener('click', () => {
  void fetch('/api/draft', { method: 'POST', body: JSON.stringify({ title: subject?.value, body: content?.value }) }).then(() => {
    if (status) status.textContent = 'Saved temporarily.';
  });
});
document.querySelector('#register-button')?.addEventListener('click', () => {
  void fetch('/api/posts', {
    method: 'POST',
    body: JSON.stringify({ title: subject?.value, body: content?.value, category: board?.value }),
  }).then(async (response) => {
    if (response.status !== 201) {
      if (status) status.textContent = 'Could not register: log in again.';
      return;
    }
    const post = (await response.json()) as { id: number };
    location.href = `/posts/${post.id}`;
  });
});
void loadTemp();
