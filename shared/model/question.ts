/**
 * A question for the person: an agent's `resolve` matched several tabs (`ambiguous_target`) and
 * asked the person to choose (`ask`). Defined here once: the worker keeps it in the session store
 * (checked with `questionSchema` when storage gives it back), and the person's pages show it with
 * the candidates in words — site, title, account — to pick one or decline.
 */
import { z } from 'zod';
import { agentLabelSchema } from '../agent/agentIdentity.ts';

export const questionCandidateSchema = z.object({
  tabId: z.number().int(),
  site: z.string(),
  title: z.string(),
  /** The account the page showed when Tether last looked; null when none was seen. */
  account: z.string().nullable(),
  /** The page's path on its site: two tabs with one title are told apart by it. */
  path: z.string().optional(),
  /** Another agent's task holds this tab as its write target ("Claude Code (a3f2)"). */
  heldBy: z.string().optional(),
});
export type QuestionCandidate = z.infer<typeof questionCandidateSchema>;

export const questionSchema = z.object({
  id: z.string(),
  agent: agentLabelSchema,
  workspaceId: z.string(),
  /** What the tab is for in the request: written, or only read. */
  role: z.enum(['write', 'reference']),
  /** What the request named ("cafe", a url, a title). */
  named: z.string(),
  candidates: z.array(questionCandidateSchema),
  createdAt: z.number(),
  expiresAt: z.number(),
  decision: z.enum(['pending', 'picked', 'declined']),
  picked: z.number().int().optional(),
});
export type Question = z.infer<typeof questionSchema>;

/** What the resolve tool asks; the worker adds the id, the times and the decision. */
export type QuestionRequest = Omit<Question, 'id' | 'createdAt' | 'expiresAt' | 'decision' | 'picked'>;

export type QuestionAnswer = { kind: 'picked'; tabId: number } | { kind: 'declined' } | { kind: 'timeout' };
