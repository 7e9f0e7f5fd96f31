/** What `context` with no arguments tells an agent: the whole flow, in a few lines. */
export const USAGE = [
  'Tether acts only where the person allowed it, and checks again just before acting.',
  '1. context → pick a profile id and a shared workspace id (tabs, which sites are writable, the view, the request-time tab, programs).',
  '2. resolve {profile, workspace, destination:{site:"blog"}, references:[{site:"cafe"}]} → a write handle, reference handles, and a one-line explanation. Omit destination to use the continued program or the active tab.',
  '3. inspect {profile, workspace, handle, read:["post.body"]} → url, sign-in and account, fields (name, kind, length, hash), draft state, actions, and the text you asked for.',
  '4. act {profile, workspace, handle, plan:{steps:[{op:"fill",field:"title",text:"…"},{op:"append",field:"body",text:"…"},{op:"click",action:"publish"}]}} → all steps run, or none. Writes expect what the last inspect saw; add requestId to make retries safe, at:"ISO time" to run later.',
  'Refusals have a stable error.code (missing_context, ambiguous_target, context_changed, field_changed, …) and a message saying what to fix. Never retry on another tab: resolve again.',
].join('\n');
