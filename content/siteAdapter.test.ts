import { describe, expect, it } from 'vitest';
import { adapterMatches, adapterVerdict, type SiteAdapter } from './siteAdapter.ts';

const adapter = (hosts: string[], paths?: string[]): SiteAdapter => ({
  id: 'x',
  checked: '2026-11-30',
  hosts,
  ...(paths ? { paths } : {}),
  signIn: { signedIn: [], signedOut: [], account: [] },
  fields: [],
  actions: [],
  readable: [],
  draft: { banners: [] },
});

describe('adapterMatches', () => {
  it.each([
    [['blog.naver.com'], undefined, 'https://blog.naver.com/alice', true],
    [['blog.naver.com'], undefined, 'https://m.blog.naver.com/alice', false],
    [['.tistory.com'], ['/manage/'], 'https://alice.tistory.com/manage/newpost/', true],
    [['.tistory.com'], ['/manage/'], 'https://alice.tistory.com/12', false],
    [['.tistory.com'], undefined, 'https://tistory.com.evil.example/', false],
    [['*'], ['/wp-admin/post-new.php'], 'https://example.org/wp-admin/post-new.php', true],
    [['*'], ['/wp-admin/post-new.php'], 'https://example.org/', false],
  ] as const)('%j %j claims %s: %s', (hosts, paths, url, expected) => {
    expect(adapterMatches(adapter([...hosts], paths ? [...paths] : undefined), new URL(url))).toBe(expected);
  });
});

describe('adapterVerdict: never worse than the generic model', () => {
  const base = { adapter: { id: 'naver-blog', checked: '2026-11-30' }, named: ['title', 'body'] };

  it('keeps the adapter when it names every field on the page', () => {
    expect(adapterVerdict({ ...base, found: ['title', 'body'], unnamed: [] })).toEqual({ use: 'adapter', adapter: 'naver-blog', problem: null });
  });

  it('keeps the adapter on a page with no fields at all (a post being read)', () => {
    expect(adapterVerdict({ ...base, found: [], unnamed: [] }).use).toBe('adapter');
  });

  it('falls back to the generic model when the adapter found none of its fields but the page has some', () => {
    const verdict = adapterVerdict({ ...base, found: [], unnamed: ['headline', 'body'] });
    expect(verdict.use).toBe('generic');
    expect(verdict.adapter).toBe('generic');
    expect(verdict.problem).toBe(
      'The naver-blog adapter (checked 2026-11-30) found none of its fields (title, body) on this page; the generic page model read it.',
    );
  });

  it('adds the fields the adapter does not name, and says which of its own it did not find', () => {
    const verdict = adapterVerdict({ ...base, found: ['body'], unnamed: ['title'] });
    expect(verdict).toEqual({
      use: 'adapter+generic',
      adapter: 'naver-blog',
      problem:
        'The naver-blog adapter (checked 2026-11-30) does not name a field on this page (title); the generic page model added it. Not found here: title.',
    });
    expect(adapterVerdict({ ...base, found: ['title', 'body'], unnamed: ['summary', 'tags'] }).problem).toContain(
      'does not name 2 fields on this page (summary, tags); the generic page model added them.',
    );
  });
});
