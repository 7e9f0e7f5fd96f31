import { describe, expect, it } from 'vitest';
import type { PageInspection } from '../../shared/page/pageProtocol.ts';
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

describe('inspectionView: what the agent reads, and nothing empty or default', () => {
  const field = (name: string, label: string, extra: Partial<PageInspection['fields'][number]> = {}): PageInspection['fields'][number] => ({
    name,
    label,
    kind: 'input',
    length: 3,
    hash: `h_${name}`,
    focused: false,
    editedByPerson: false,
    ...extra,
  });

  it.each<{ name: string; page: Partial<PageInspection>; expect: Record<string, unknown> }>([
    {
      name: 'signed out: the state alone, no account key',
      page: { signIn: { state: 'signed_out', account: null, via: 'generic' } },
      expect: { signIn: { state: 'signed_out' } },
    },
    {
      name: 'a draft in progress: its reasons',
      page: { draft: { inProgress: true, reasons: ['the title holds text'] } },
      expect: { signIn: { state: 'signed_in', account: 'alice' }, draft: { reasons: ['the title holds text'] } },
    },
    {
      name: 'labels only where they say more than the name (case, spaces and punctuation aside)',
      page: {
        fields: [
          field('title', 'Subject'),
          field('post_title', 'Post title'),
          field('body', ''),
          field('tags', '  '),
          field('category', 'Category', { kind: 'select', options: ['Diary', 'Food'], focused: true, editedByPerson: true }),
        ],
        actions: [
          { name: 'publish', kind: 'publish', label: 'Publish' },
          { name: 'save_draft', kind: 'save_draft', label: 'Save draft!' },
          { name: 'temp', kind: 'save_draft', label: '임시 저장' },
        ],
      },
      expect: {
        signIn: { state: 'signed_in', account: 'alice' },
        fields: [
          { name: 'title', kind: 'input', length: 3, hash: 'h_title', label: 'Subject' },
          { name: 'post_title', kind: 'input', length: 3, hash: 'h_post_title' },
          { name: 'body', kind: 'input', length: 3, hash: 'h_body' },
          { name: 'tags', kind: 'input', length: 3, hash: 'h_tags' },
          { name: 'category', kind: 'select', length: 3, hash: 'h_category', focused: true, editedByPerson: true, options: ['Diary', 'Food'] },
        ],
        actions: [
          { name: 'publish', kind: 'publish' },
          { name: 'save_draft', kind: 'save_draft' },
          { name: 'temp', kind: 'save_draft', label: '임시 저장' },
        ],
      },
    },
    {
      name: 'what was read is in text; readable names only the rest; unknown names are listed',
      page: { readable: ['post.title', 'post.body'], text: { 'post.title': 'Spring' }, unknown: ['nope'] },
      expect: { signIn: { state: 'signed_in', account: 'alice' }, readable: ['post.body'], text: { 'post.title': 'Spring' }, unknown: ['nope'] },
    },
    {
      name: 'everything read: no readable key; no unknown names: no unknown key',
      page: { readable: ['post.title'], text: { 'post.title': 'Spring' }, unknown: [] },
      expect: { signIn: { state: 'signed_in', account: 'alice' }, text: { 'post.title': 'Spring' } },
    },
    {
      name: 'nothing read: readable lists every region, and no text key',
      page: { readable: ['post.title'] },
      expect: { signIn: { state: 'signed_in', account: 'alice' }, readable: ['post.title'] },
    },
  ])('$name', ({ page: extra, expect: expected }) => {
    expect(inspectionView(page(extra), 'write')).toStrictEqual(expected);
  });
});

describe('inspectionView: a reference answer has no controls', () => {
  const controls = page({
    fields: [
      { name: 'title', kind: 'input', label: 'Title', length: 0, hash: 'v1:0', focused: false, editedByPerson: false },
      { name: 'comment', kind: 'textarea', label: 'Comment', length: 12, hash: 'v1:c', focused: false, editedByPerson: false },
    ],
    actions: [
      { name: 'post_comment', kind: 'submit', label: 'Post comment' },
      { name: 'reply', kind: 'submit', label: 'Reply', repeated: 199 },
    ],
    readable: ['title', 'main'],
  });

  it('through a write handle: fields and actions, a repeated control once with how many more were left out', () => {
    expect(inspectionView(controls, 'write')).toEqual({
      signIn: { state: 'signed_in', account: 'alice' },
      fields: [
        { name: 'title', kind: 'input', length: 0, hash: 'v1:0' },
        { name: 'comment', kind: 'textarea', length: 12, hash: 'v1:c' },
      ],
      actions: [
        { name: 'post_comment', kind: 'submit' },
        { name: 'reply', kind: 'submit', repeated: 199 },
      ],
      readable: ['title', 'main'],
    });
  });

  it('through a reference handle: no fields, no actions; the fields that hold text can be read by name', () => {
    expect(inspectionView(controls, 'reference')).toEqual({ signIn: { state: 'signed_in', account: 'alice' }, readable: ['title', 'main', 'comment'] });
    expect(inspectionView({ ...controls, text: { comment: 'typed before' } }, 'reference')).toEqual({
      signIn: { state: 'signed_in', account: 'alice' },
      readable: ['title', 'main'],
      text: { comment: 'typed before' },
    });
  });
});

describe('inspectionView: text', () => {
  it('passes on how a text was cut and why one was read another way; says nothing when neither happened', () => {
    const truncated = { article: { from: 49_996, returned: 50_000, total: 180_000, next: 99_996 } };
    const fallback = { article: "The reader view (Readability) finds no article on this page. This is the page's main text, read without the reader view." };
    expect(inspectionView(page({ text: { article: 'x' }, truncated, fallback }), 'write')).toMatchObject({ text: { article: 'x' }, truncated, fallback });
    const plain = inspectionView(page({ text: { article: 'x' }, truncated: {}, fallback: {} }), 'write');
    expect(plain).not.toHaveProperty('truncated');
    expect(plain).not.toHaveProperty('fallback');
  });
});
