/**
 * R10: every resolution carries one line a person can read, in English and Korean: which site,
 * which account, which tabs are only read, and which rule chose the target.
 */

export type ChoiceRule = 'explicit_handle' | 'named_in_request' | 'program_target' | 'request_time_tab';

export interface ExplainedTarget {
  title: string;
  site: string;
  account: string | null;
  rule: ChoiceRule;
  namedAs: string | null;
  programLabel?: string;
}

/** The languages explanations come in. The person's UI and the journal keep both; an agent reads one. */
export const LANGS = ['en', 'ko'] as const;
export type Lang = (typeof LANGS)[number];

export type Explanation = Record<Lang, string>;

/** The one language a request asked for (English unless it said otherwise). */
export function inLang(explanation: Explanation, lang: Lang | undefined): string {
  return explanation[lang ?? 'en'];
}

function quoteTitle(title: string): string {
  const trimmed = title.trim() || 'untitled';
  return `‘${trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed}’`;
}

function reasonEn(target: ExplainedTarget): string {
  switch (target.rule) {
    case 'explicit_handle':
      return 'the request gave its handle';
    case 'named_in_request':
      return target.namedAs ? `this request named “${target.namedAs}”` : 'this request named it';
    case 'program_target':
      return `it is the target of program “${target.programLabel ?? '?'}”`;
    case 'request_time_tab':
      return 'no site was named, so the tab active when the request arrived';
  }
}

function reasonKo(target: ExplainedTarget): string {
  switch (target.rule) {
    case 'explicit_handle':
      return '요청에 핸들이 주어졌습니다';
    case 'named_in_request':
      return target.namedAs ? `이번 요청이 “${target.namedAs}”을(를) 지정했습니다` : '이번 요청이 이 탭을 지정했습니다';
    case 'program_target':
      return `프로그램 “${target.programLabel ?? '?'}”의 대상입니다`;
    case 'request_time_tab':
      return '사이트를 지정하지 않아 요청 당시 활성 탭을 씁니다';
  }
}

export function explainResolution(write: ExplainedTarget | null, references: ExplainedTarget[]): Explanation {
  const readsEn = references.map((reference) => `${quoteTitle(reference.title)} (${reference.site})`).join(', ');
  const readsKo = references.map((reference) => `${quoteTitle(reference.title)}(${reference.site})`).join(', ');

  if (!write) {
    return {
      en: `Only reading ${readsEn} — nothing will be written.`,
      ko: `${readsKo}을(를) 읽기만 합니다 — 아무것도 쓰지 않습니다.`,
    };
  }

  const accountEn = write.account ? `as ${write.account}` : 'with no account seen on the page';
  const accountKo = write.account ? `${write.account} 계정으로` : '계정이 확인되지 않은 채';
  const en = [
    `Writing to ${quoteTitle(write.title)} (${write.site}) ${accountEn}`,
    references.length > 0 ? ` · reading ${readsEn}` : '',
    ` — ${reasonEn(write)}.`,
  ].join('');
  const ko = [
    `${quoteTitle(write.title)}(${write.site})에 ${accountKo} 씁니다`,
    references.length > 0 ? ` · ${readsKo}은(는) 읽기만 합니다` : '',
    ` — ${reasonKo(write)}.`,
  ].join('');
  return { en, ko };
}
