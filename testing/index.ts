/**
 * tether-mcp/testing: Playwright tests of agent flows that use Tether (docs/testing.md).
 *
 *   import { test, expect } from 'tether-mcp/testing';
 *   test('…', async ({ tether, page }) => { const workspace = await tether.workspace({ pages: [page] }); … });
 */
export { expect, test, type TetherFixtureOptions, type TetherFixtures } from './fixture.ts';
export { Tether, type TetherAgent, type TetherOptions, type TetherWorkspace, type WorkspaceOptions } from './tether.ts';
export type { Person, ApprovalQuestion, ChoiceQuestion, DepartureQuestion, Question, WaitOptions } from './person.ts';
export { freePort } from './ports.ts';
export type { McpServerConfig } from './serverConfig.ts';
export type { JournalRecord, JournalTarget, JournalOutcome, LifecyclePoint } from '../shared/model/journalRecord.ts';
export type { Envelope, ToolEnvelope, ToolName } from '../shared/agent/agentProtocol.ts';
export type { ToolResults, ContextResult, ResolveResult, InspectResult, ActResult, ActDone, ActScheduled } from '../shared/agent/results.ts';
export type { TetherError } from '../shared/errors.ts';
