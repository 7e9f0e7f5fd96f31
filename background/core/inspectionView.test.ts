import { describe, expect, it } from 'vitest';
import type { PageInspection } from '../../shared/pageProtocol.ts';
import { inspectionView } from './inspectionView.ts';

const page = (extra: Partial<PageInspection> = {}): PageInspection => ({
  url: 'https://blog.example/write',
  title: 'New post',
  pageInstance: 'pg',
  adapter: 'naver-blog',
  signIn: { state: 'signed_in', account: 'alice', via: 'adapter:naver-blog' },
  draft: { inProgress: false, reasons: [] },
  fieldElements: {},
  fields: [],
  actions: [],
  readable: [],
  ...extra,
});

describe('inspectionView: which model read the page', () => {
  it('leaves it to the journal when the site adapter matched (or there is none)', () => {
    expect(inspectionView(page())).toEqual({ signIn: { state: 'signed_in', account: 'alice' } });
    expect(inspectionView(page({ adapter: 'generic' }))).not.toHaveProperty('adapter');
  });

  it('tells the agent when the adapter did not match, and what the generic model did', () => {
    const problem = 'The naver-blog adapter (checked 2026-11-30) found none of its fields (title, body) on this page; the generic page model read it.';
    expect(inspectionView(page({ adapter: 'generic', adapterProblem: problem }))).toMatchObject({ adapter: 'generic', adapterProblem: problem });
  });
});

describe('inspectionView: text', () => {
  it('passes on how a text was cut and why one was read another way; says nothing when neither happened', () => {
    const truncated = { article: { from: 49_996, returned: 50_000, total: 180_000, next: 99_996 } };
    const fallback = { article: "The reader view (Readability) finds no article on this page. This is the page's main text, read without the reader view." };
    expect(inspectionView(page({ text: { article: 'x' }, truncated, fallback }))).toMatchObject({ text: { article: 'x' }, truncated, fallback });
    const plain = inspectionView(page({ text: { article: 'x' }, truncated: {}, fallback: {} }));
    expect(plain).not.toHaveProperty('truncated');
    expect(plain).not.toHaveProperty('fallback');
  });
});
