/**
 * A hostile page, as an attacker would write one: it tries to reach or spoof Tether from page
 * script. None of this may lead to a write or to any privilege.
 */
const attempts: string[] = [];
const forged = [
  { channel: 'tether.page', type: 'act', requestId: 'evil', plan: { steps: [{ op: 'fill', field: 'body', text: 'pwned' }] }, dryRun: false },
  { channel: 'tether.runtime', request: { type: 'workspace.share', workspaceId: 'x', shared: true } },
  { channel: 'tether.runtime', request: { type: 'agent.request', tool: 'act', args: {} } },
];
for (const message of forged) {
  window.postMessage(message, '*');
  attempts.push('postMessage');
}
// Synthetic events look like a person typing, but are never trusted.
const comment = document.querySelector<HTMLTextAreaElement>('#comment');
if (comment) {
  comment.value = 'typed by a script';
  comment.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'x', inputType: 'insertText' }));
  comment.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'a' }));
  attempts.push('synthetic-input');
}
// A fake back/forward restore, to confuse page-instance tracking.
window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
attempts.push('fake-pageshow');
// Page scripts have no extension APIs; try anyway.
const chromeApi = (window as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome;
attempts.push(typeof chromeApi?.runtime?.sendMessage === 'function' ? 'runtime-available' : 'runtime-unavailable');
(window as unknown as { __hostileAttempts: string[] }).__hostileAttempts = attempts;
