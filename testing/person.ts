/**
 * The person's side of a test: what Tether's panel asks them right now, and their answer, sent as
 * the panel's buttons send it. Tether asks the person three kinds of thing: to approve a plan that
 * publishes or submits (Approve / Decline), which tab an agent meant when several matched (an
 * agent's `resolve` with `ask`: pick one, or decline), and what to do with a tab that went to
 * another site (Add it back / Dismiss).
 */
import { expect } from '@playwright/test';
import type { Workspace } from '../shared/model/targetModel.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../shared/extension/uiProtocol.ts';

/** A plan waiting for the person's Approve or Decline, as the panel shows it. */
export interface ApprovalQuestion {
  kind: 'approval';
  id: string;
  /** The act's request id (the agent's `requestId`, or one Tether made). */
  requestId: string;
  workspaceId: string;
  site: string;
  /** The tab's title. */
  title: string;
  account: string | null;
  /** What will happen, in the words the panel shows. */
  text: { en: string; ko: string };
  steps: Array<{ op: string; target: string; preview: string }>;
  expiresAt: number;
  /** The agent whose plan it is, when the request came from an agent's session. */
  agent?: { name: string; id: string };
}

/** A tab that left a workspace for another site: the panel offers Add it back and Dismiss. */
export interface DepartureQuestion {
  kind: 'departure';
  workspaceId: string;
  tabId: number;
  title: string;
  fromSite: string;
  toSite: string;
  /** The site it went to, as the workspace has it: outside it, or one of its own, writable or read only. */
  toSiteIs: 'outside' | 'writable' | 'read_only';
}

/** An agent's question: several tabs matched what its `resolve` named, and it asked the person to choose. */
export interface ChoiceQuestion {
  kind: 'choice';
  id: string;
  /** The agent that asks, as the panel names it ("Claude Code (a3f2)"). */
  agent: { name: string; id: string };
  workspaceId: string;
  /** What the tab is for: written, or only read. */
  role: 'write' | 'reference';
  /** What the request named ("cafe", an address, a title). */
  named: string;
  candidates: Array<{ tabId: number; site: string; title: string; account: string | null; path?: string; heldBy?: string }>;
  expiresAt: number;
}

export type Question = ApprovalQuestion | ChoiceQuestion | DepartureQuestion;

export interface WaitOptions {
  /** How long to wait for such a question, in ms (default 15,000). */
  timeout?: number;
  /** Only a question of this workspace. */
  workspace?: string | Pick<Workspace, 'id'>;
}

/** What the person's side needs of a running Tether. */
export interface PersonChannel {
  must<K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>): Promise<RuntimeAnswers[K]>;
}

/** The person at the panel. */
export interface Person {
  /** Everything the panel asks the person right now: approvals first, then agents' questions, then tabs that left. */
  questions(): Promise<Question[]>;
  /** Waits until the panel asks a question of this kind (the first one), and gives it. */
  waitFor<K extends Question['kind']>(kind: K, options?: WaitOptions): Promise<Extract<Question, { kind: K }>>;
  /** Waits for a plan to approve, and presses Approve; what the panel showed. */
  approve(options?: WaitOptions): Promise<ApprovalQuestion>;
  /** Waits for a plan to approve, and presses Decline; what the panel showed. */
  decline(options?: WaitOptions): Promise<ApprovalQuestion>;
  /** Waits for an agent's question, and picks this tab among its candidates; the question. */
  choose(tabId: number, options?: WaitOptions): Promise<ChoiceQuestion>;
  /**
   * Answers a question: Approve (true) or Decline (false); an agent's question, the tab id picked
   * (or false: none of them); for a tab that left, Add it back (true) or Dismiss (false).
   */
  answer(question: Question, answer: boolean | number): Promise<void>;
}

export class PanelPerson implements Person {
  constructor(private readonly channel: PersonChannel) {}

  /** Everything the panel asks the person right now: approvals first, then tabs that left. */
  async questions(): Promise<Question[]> {
    const state = await this.channel.must({ type: 'state.get' });
    return [
      ...state.approvals.map((approval): ApprovalQuestion => ({
        kind: 'approval',
        id: approval.id,
        requestId: approval.requestId,
        workspaceId: approval.workspaceId,
        site: approval.site,
        title: approval.title,
        account: approval.account,
        text: approval.summary,
        steps: approval.steps,
        expiresAt: approval.expiresAt,
      })),
      ...state.departures.map((departure): DepartureQuestion => ({
        kind: 'departure',
        workspaceId: departure.workspaceId,
        tabId: departure.tabId,
        title: departure.title,
        fromSite: departure.fromSite,
        toSite: departure.toSite,
        toSiteIs: departure.toSiteIs,
      })),
    ];
  }

  /** Waits until the panel asks a question of this kind (the first one), and gives it. */
  async waitFor<K extends Question['kind']>(kind: K, options: WaitOptions = {}): Promise<Extract<Question, { kind: K }>> {
    const workspaceId = typeof options.workspace === 'string' ? options.workspace : options.workspace?.id;
    let found: Extract<Question, { kind: K }> | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.questions()).find(
            (question): question is Extract<Question, { kind: K }> =>
              question.kind === kind && (workspaceId === undefined || question.workspaceId === workspaceId),
          );
          return found !== undefined;
        },
        {
          timeout: options.timeout ?? 15_000,
          message: `the panel to ask for ${kind === 'approval' ? 'an approval' : kind === 'choice' ? 'an agent’s choice of tab' : 'a tab that left'}`,
        },
      )
      .toBe(true);
    return found as Extract<Question, { kind: K }>;
  }

  /** Waits for a plan to approve, and presses Approve; what the panel showed. */
  async approve(options: WaitOptions = {}): Promise<ApprovalQuestion> {
    const question = await this.waitFor('approval', options);
    await this.answer(question, true);
    return question;
  }

  /** Waits for a plan to approve, and presses Decline; what the panel showed. */
  async decline(options: WaitOptions = {}): Promise<ApprovalQuestion> {
    const question = await this.waitFor('approval', options);
    await this.answer(question, false);
    return question;
  }

  async choose(tabId: number, options: WaitOptions = {}): Promise<ChoiceQuestion> {
    const question = await this.waitFor('choice', options);
    await this.answer(question, tabId);
    return question;
  }

  async answer(question: Question, answer: boolean | number): Promise<void> {
    if (question.kind === 'choice') {
      if (answer === true) throw new Error('an agent’s question is answered with the tab id picked, or false');
      await this.channel.must({ type: 'question.answer', questionId: question.id, tabId: answer === false ? null : answer });
      return;
    }
    if (typeof answer === 'number') throw new Error(`a ${question.kind} question is answered true or false`);
    if (question.kind === 'approval') await this.channel.must({ type: 'approval.decide', approvalId: question.id, approve: answer });
    else if (answer) await this.channel.must({ type: 'workspace.addTab', workspaceId: question.workspaceId, tabId: question.tabId });
    else await this.channel.must({ type: 'departure.dismiss', workspaceId: question.workspaceId, tabId: question.tabId });
  }
}
