/** What `context` with no arguments tells an agent: the whole flow, in a few lines. */
export const USAGE = [
  'Tether acts only where the person allowed it and checks again just before acting.',
  '1. context: pick profile and workspace ids.',
  '2. resolve {profile, workspace, destination:{site:"blog"}, references:[{site:"cafe"}]}: a write handle, reference handles, an explanation.',
  '3. inspect {profile, workspace, handle, read:["post.body"], readAs?:"markdown"}: sign-in, fields (name, kind, hash), draft, actions, text asked for.',
  '4. act {profile, workspace, handle, plan:{steps:[{op:"fill",field:"title",text:"…"},{op:"fill",field:"body",text:"## …",format:"markdown"},{op:"click",action:"publish"}]}}: all steps or none; writes expect what inspect saw; each write says the editor, the path, and for markdown/html what it kept and dropped. requestId makes retries safe; at schedules.',
  'Answers: {ok, result|error:{code, message, details}, meta}. On context_changed resolve again; never retry on another tab.',
].join('\n');
