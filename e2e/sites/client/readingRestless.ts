/**
 * The restless page (/reading/restless): it never stops mutating. Every task rewrites the ticker
 * and moves the feed on (a new line in, the oldest out), and every frame flips an attribute on a
 * hundred lines, so the document is never the same from one moment to the next.
 */
const ticker = document.querySelector<HTMLElement>('.ticker');
const feed = document.querySelector<HTMLElement>('.feed');
let count = 0;

function step(): void {
  count += 1;
  if (ticker) ticker.textContent = String(count);
  if (feed) {
    const line = document.createElement('li');
    line.textContent = `Update ${2500 + count}: the market feed is live.`;
    feed.append(line);
    feed.firstElementChild?.remove();
  }
  (window as unknown as { mutations: number }).mutations = count;
  setTimeout(step, 0);
}

function frame(time: number): void {
  const lines = feed?.children ?? [];
  for (let index = 0; index < 100 && index < lines.length; index += 1) lines[index]?.setAttribute('data-t', String(Math.round(time)));
  requestAnimationFrame(frame);
}

step();
requestAnimationFrame(frame);
