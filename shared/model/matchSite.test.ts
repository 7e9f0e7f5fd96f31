import { describe, expect, it } from 'vitest';
import { siteMatches } from './matchSite.ts';

describe('siteMatches', () => {
  it.each([
    ['blog', 'http://blog.localhost:4173/write', true],
    ['blog', 'http://cafe.localhost:4173/', false],
    ['블로그', 'http://blog.localhost:4173/write', true],
    ['카페', 'https://cafe.naver.com/riverside', true],
    ['naver cafe', 'https://cafe.naver.com/riverside', true],
    ['네이버 블로그', 'https://blog.naver.com/alice', true],
    ['네이버 블로그', 'https://cafe.naver.com/alice', false],
    ['blog', 'https://alice.tistory.com/manage/newpost', true],
    ['tistory', 'https://alice.tistory.com/', true],
    ['cafe.naver.com', 'https://cafe.naver.com/x', true],
    ['naver.com', 'https://cafe.naver.com/x', true],
    ['ver.com', 'https://cafe.naver.com/x', false],
    ['http://blog.localhost:4173', 'http://blog.localhost:4173/write', true],
    ['http://blog.localhost:4173', 'http://blog.localhost:9999/write', false],
    ['blog.localhost:4173', 'http://blog.localhost:5000/write', false],
    ['  Blog ', 'http://blog.localhost/write', true],
    ['', 'http://blog.localhost/', false],
    ['blog', 'chrome://settings', false],
  ])('%s ~ %s → %s', (name, url, expected) => {
    expect(siteMatches(name, url)).toBe(expected);
  });
});
