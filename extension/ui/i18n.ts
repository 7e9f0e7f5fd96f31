/**
 * Words on screen come from _locales through chrome.i18n, so the UI follows the browser's
 * language (English and Korean). Texts the worker composes (explanations, plan summaries) come
 * in both languages; `pick` chooses.
 */
import browser from 'webextension-polyfill';

export function t(key: string, substitutions?: string | string[]): string {
  const text = browser.i18n.getMessage(key, substitutions);
  return text || key;
}

/** The text of `key`, or null where the locale has no such message. */
export function tIfKnown(key: string, substitutions?: string | string[]): string | null {
  return browser.i18n.getMessage(key, substitutions) || null;
}

export const uiLanguage = browser.i18n.getUILanguage();
export const isKorean = uiLanguage.toLowerCase().startsWith('ko');

export function pick(text: { en: string; ko: string } | undefined): string {
  if (!text) return '';
  return isKorean ? text.ko : text.en;
}

const timeFormat = new Intl.DateTimeFormat(uiLanguage, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(uiLanguage, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export function formatTime(epochMs: number): string {
  return timeFormat.format(new Date(epochMs));
}

export function formatDateTime(epochMs: number): string {
  return dateTimeFormat.format(new Date(epochMs));
}

/** The page speaks the browser's language: lang attribute and title. */
export function applyDocumentLanguage(): void {
  document.documentElement.lang = uiLanguage;
  document.title = t('extName');
}
