/**
 * The types the testing kit's declarations name are written out as interfaces (a tester has no
 * zod); the schemas that check the same data at trust boundaries must give exactly those types,
 * field for field. `npm run typecheck` checks these; the test run only says they were checked.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type * as zm from 'zod/mini';
import { signInSchema, stepOutcomeSchema, type SignIn, type StepOutcome } from '../page/pageProtocol.ts';
import { contextSchemas, type ContextProfile, type ContextProgram, type ContextResult, type ContextTab, type ContextWorkspace } from './results.ts';

describe('written-out result types match their schemas exactly', () => {
  it('page protocol', () => {
    expectTypeOf<zm.infer<typeof signInSchema>>().toEqualTypeOf<SignIn>();
    expectTypeOf<zm.infer<typeof stepOutcomeSchema>>().toEqualTypeOf<StepOutcome>();
  });

  it('context', () => {
    expectTypeOf<z.infer<typeof contextSchemas.contextTabSchema>>().toEqualTypeOf<ContextTab>();
    expectTypeOf<z.infer<typeof contextSchemas.contextProgramSchema>>().toEqualTypeOf<ContextProgram>();
    expectTypeOf<z.infer<typeof contextSchemas.contextWorkspaceSchema>>().toEqualTypeOf<ContextWorkspace>();
    expectTypeOf<z.infer<typeof contextSchemas.contextProfileSchema>>().toEqualTypeOf<ContextProfile>();
    expectTypeOf<z.infer<typeof contextSchemas.contextResultSchema>>().toEqualTypeOf<ContextResult>();
  });
});
