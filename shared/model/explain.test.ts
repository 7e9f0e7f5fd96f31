import { describe, expect, it } from 'vitest';
import { describePlan } from './describePlan.ts';
import { explainResolution } from './explain.ts';
import { fieldHash, normalizeFieldText, sameFieldText } from '../page/fieldText.ts';

describe('explainResolution (R10)', () => {
  const write = { title: 'My blog — new post', site: 'blog.example', account: 'alice', rule: 'named_in_request' as const, namedAs: 'blog' };
  const reference = { title: 'Weekly notes', site: 'cafe.example', account: null, rule: 'named_in_request' as const, namedAs: 'cafe' };

  it('says which site, which account, what is only read, and why — in English and Korean', () => {
    const { en, ko } = explainResolution(write, [reference]);
    expect(en).toBe('Writing to ‘My blog — new post’ (blog.example) as alice · reading ‘Weekly notes’ (cafe.example) — this request named “blog”.');
    expect(ko).toContain('‘My blog — new post’(blog.example)에 alice 계정으로 씁니다');
    expect(ko).toContain('‘Weekly notes’(cafe.example)은(는) 읽기만 합니다');
    expect(ko).toContain('“blog”');
  });

  it.each([
    ['explicit_handle', 'the request gave its handle', '핸들'],
    ['program_target', 'target of program “weekly”', '프로그램 “weekly”'],
    ['request_time_tab', 'active when the request arrived', '요청 당시 활성 탭'],
  ] as const)('names the rule %s', (rule, en, ko) => {
    const explained = explainResolution({ ...write, rule, programLabel: 'weekly' }, []);
    expect(explained.en).toContain(en);
    expect(explained.ko).toContain(ko);
  });

  it('says when no account was seen, and when nothing will be written', () => {
    expect(explainResolution({ ...write, account: null }, []).en).toContain('with no account seen');
    expect(explainResolution(null, [reference]).en).toBe('Only reading ‘Weekly notes’ (cafe.example) — nothing will be written.');
  });

  it('describes a plan in words', () => {
    const words = describePlan(
      {
        steps: [
          { op: 'fill', field: 'title', text: 'Hello' },
          { op: 'click', action: 'publish' },
        ],
      },
      { title: 'New post', site: 'blog.example', account: 'alice' },
    );
    expect(words.en).toBe('On ‘New post’ (blog.example) as alice: write 5 characters into title, then press publish.');
    expect(words.ko).toBe('‘New post’(blog.example)에서 alice 계정으로: title에 5자 쓰기, publish 누르기.');
  });
});

describe('field text', () => {
  it('reads editors the same way whoever formats the newlines', () => {
    expect(sameFieldText('a\n\nb\n', 'a\nb')).toBe(true);
    expect(sameFieldText('a\u00a0b\r\n', 'a b')).toBe(true);
    expect(normalizeFieldText('x  \n\n\ny')).toBe('x\ny');
    expect(fieldHash('a\n\nb')).toBe(fieldHash('a\nb'));
    expect(fieldHash('alice')).not.toBe(fieldHash('alice!'));
  });
});
