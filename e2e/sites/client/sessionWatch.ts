/**
 * Like real sites, the header notices when the session ends or changes in another tab: it asks
 * the server who is signed in and redraws the account area.
 */
const nav = document.querySelector<HTMLElement>('nav.account');
const site = document.body.className.replace('site-', '');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function render(user: string | null): void {
  if (!nav || (nav.dataset.user ?? '') === (user ?? '')) return;
  nav.dataset.user = user ?? '';
  if (site === 'blog') {
    nav.innerHTML = user
      ? `<span class="account-label">Signed in as</span> <span class="account-name">${escapeHtml(user)}</span> <a class="sign-out" href="/logout">Sign out</a>`
      : '<a class="sign-in" href="/login">Sign in</a>';
  } else if (site === 'cafe') {
    nav.innerHTML = user
      ? `<span class="member-label">Member</span> <span class="member-nick">${escapeHtml(user)}</span> <a class="logout-link" href="/logout">Log out</a>`
      : '<a class="login-link" href="/login">Log in</a>';
  } else {
    nav.innerHTML = user ? `<span class="user-name">${escapeHtml(user)}</span> <a href="/logout">Log out</a>` : '<a href="/login">Log in</a>';
  }
}

async function check(): Promise<void> {
  try {
    const response = await fetch('/api/session', { cache: 'no-store' });
    const { user } = (await response.json()) as { user: string | null };
    render(user);
  } catch {
    // offline: keep what is shown
  }
}

setInterval(() => void check(), 1000);
document.addEventListener('visibilitychange', () => void check());
window.addEventListener('focus', () => void check());
