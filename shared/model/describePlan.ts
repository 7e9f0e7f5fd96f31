/**
 * A plan in words, for the person who must approve it and for the journal: what will be written
 * into which field, on which site, as which account.
 */
import type { Explanation } from './explain.ts';
import type { Plan, PlanStep } from '../agent/agentProtocol.ts';

export interface PlanTarget {
  title: string;
  site: string;
  account: string | null;
}

export interface StepPreview {
  op: string;
  target: string;
  preview: string;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}

export function previewStep(step: PlanStep): StepPreview {
  switch (step.op) {
    case 'fill':
    case 'append':
      return { op: step.op, target: step.field, preview: preview(step.text) };
    case 'clear':
      return { op: step.op, target: step.field, preview: '' };
    case 'select':
      return { op: step.op, target: step.field, preview: step.value };
    case 'click':
      return { op: step.op, target: step.action, preview: '' };
    case 'image':
      return { op: step.op, target: step.field, preview: step.alt };
  }
}

/** An image in words: where it comes from (a reference page's image, a file, inline bytes), never its bytes. */
function imageWords(step: Extract<PlanStep, { op: 'image' }>, lang: 'en' | 'ko'): string {
  const { source } = step;
  const alt = step.alt ? ` “${step.alt}”` : '';
  if ('ref' in source) return lang === 'en' ? `the image ${source.image}${alt} of a reference page` : `참고 페이지의 이미지 ${source.image}${alt}`;
  if ('file' in source) {
    const name = source.file.split(/[\\/]/).pop() ?? source.file;
    return lang === 'en' ? `the image file ${name}${alt}` : `이미지 파일 ${name}${alt}`;
  }
  return lang === 'en' ? `an image${alt}` : `이미지${alt}`;
}

function stepEn(step: PlanStep): string {
  switch (step.op) {
    case 'fill':
      return `write ${step.text.length} characters into ${step.field}`;
    case 'append':
      return `add ${step.text.length} characters to ${step.field}`;
    case 'clear':
      return `clear ${step.field}`;
    case 'select':
      return `choose “${step.value}” in ${step.field}`;
    case 'click':
      return `press ${step.action}`;
    case 'image':
      return `put ${imageWords(step, 'en')} into ${step.field}`;
  }
}

function stepKo(step: PlanStep): string {
  switch (step.op) {
    case 'fill':
      return `${step.field}에 ${step.text.length}자 쓰기`;
    case 'append':
      return `${step.field}에 ${step.text.length}자 덧붙이기`;
    case 'clear':
      return `${step.field} 비우기`;
    case 'select':
      return `${step.field}에서 “${step.value}” 선택`;
    case 'click':
      return `${step.action} 누르기`;
    case 'image':
      return `${step.field}에 ${imageWords(step, 'ko')} 넣기`;
  }
}

export function describePlan(plan: Plan, target: PlanTarget): Explanation {
  const where = `‘${target.title || 'untitled'}’ (${target.site})`;
  const whereKo = `‘${target.title || 'untitled'}’(${target.site})`;
  const as = target.account ? ` as ${target.account}` : '';
  const asKo = target.account ? ` ${target.account} 계정으로` : '';
  return {
    en: `On ${where}${as}: ${plan.steps.map(stepEn).join(', then ')}.`,
    ko: `${whereKo}에서${asKo}: ${plan.steps.map(stepKo).join(', ')}.`,
  };
}
