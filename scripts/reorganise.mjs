#!/usr/bin/env node
/**
 * Issue 27, item 2: folders name what runs. Moves bridge/, content/ and shared/ files into folders
 * by program, bundle and channel (`git mv`, so history follows), and rewrites every reference to
 * a moved file: relative import specifiers and other relative string literals in code (resolved
 * from where the file was, recomputed from where it is), repository paths in docs, configs and
 * comments (`content/runPlan.ts` → `content/act/runPlan.ts`), and a moved file's bare name in a
 * comment or doc when that name is unambiguous.
 *
 * Re-runnable: a move whose source is gone (already moved) or whose target exists is skipped, and
 * references are rewritten only for the moves this run made. Run it on a newer main to re-apply
 * the moves after others' work landed:
 *
 *   node scripts/reorganise.mjs            # moves and rewrites (needs a clean `git status`)
 *   node scripts/reorganise.mjs --dry-run  # lists the moves only
 *
 * then `npm run format`, `npm run typecheck`, `npm run lint`, `npx vitest run`. A file added
 * since in a folder this moves (a new content/foo.ts) stays where it is; its imports of moved
 * files are rewritten like any other. content/editors/** stays where it is (it names a concept).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const DRY = process.argv.includes('--dry-run');

/** [from, to], repository paths. A file's `.test.ts` (and `.property.test.ts`) follows it. A folder moves whole. */
const MOVES = [
  // bridge/: the MCP server (mcp/), the loopback WebSocket's hub and relays (loopback/), the native
  // messaging host program and the bridge's client to the hosts (native/), the installer (install/).
  // What several programs share stays at bridge/ (main.ts, config.ts, runDir.ts, version.ts,
  // nodeFrameCipher.ts, sessionOwners.ts).
  ['bridge/mcpServer.ts', 'bridge/mcp/mcpServer.ts'],
  ['bridge/mcpTools.ts', 'bridge/mcp/mcpTools.ts'],
  ['bridge/earlyAnswers.ts', 'bridge/mcp/earlyAnswers.ts'],
  ['bridge/stdioFrontDoor.ts', 'bridge/mcp/stdioFrontDoor.ts'],
  ['bridge/serverIdentity.ts', 'bridge/mcp/serverIdentity.ts'],
  ['bridge/builtFacts.ts', 'bridge/mcp/builtFacts.ts'],
  ['bridge/imageFiles.ts', 'bridge/mcp/imageFiles.ts'],
  ['bridge/link.ts', 'bridge/mcp/browserLink.ts'],
  ['bridge/agentLinks.ts', 'bridge/mcp/callRoutes.ts'],
  ['bridge/browserLinks.ts', 'bridge/mcp/browserSide.ts'],
  ['bridge/hub.ts', 'bridge/loopback/hub.ts'],
  ['bridge/hubSessions.test.ts', 'bridge/loopback/hubSessions.test.ts'],
  ['bridge/relay.ts', 'bridge/loopback/relay.ts'],
  ['bridge/bridgeNode.ts', 'bridge/loopback/hubOrRelay.ts'],
  ['bridge/bridgeSocket.ts', 'bridge/loopback/pairedWebSocket.ts'],
  ['bridge/loopbackGuard.ts', 'bridge/loopback/loopbackGuard.ts'],
  ['bridge/pendingCalls.ts', 'bridge/loopback/pendingCalls.ts'],
  ['bridge/nativeHost.ts', 'bridge/native/hostProgram.ts'],
  ['bridge/nativeHosts.ts', 'bridge/native/hostClients.ts'],
  ['bridge/nativeFraming.ts', 'bridge/native/nativeFraming.ts'],
  ['bridge/hostChannel.ts', 'bridge/native/hostChannel.ts'],
  ['bridge/hostArgs.ts', 'bridge/native/hostArgs.ts'],
  ['bridge/streamFrames.ts', 'bridge/native/streamFrames.ts'],
  ['bridge/install.ts', 'bridge/install/install.ts'],
  ['bridge/hostManifest.ts', 'bridge/install/hostManifest.ts'],

  // content/: what every page carries (the content script) stays at content/; the three modules
  // the worker injects on demand have a folder each: act/ (content-act.js), sites/
  // (content-sites.js), reader/ (content-read.js). content/editors/** stays.
  ['content/registration.ts', 'content/pageChannelServer.ts'],
  ['content/actModule.ts', 'content/act/actModule.ts'],
  ['content/actContract.ts', 'content/act/actContract.ts'],
  ['content/actHost.ts', 'content/act/actHost.ts'],
  ['content/runPlan.ts', 'content/act/runPlan.ts'],
  ['content/planSteps.ts', 'content/act/planSteps.ts'],
  ['content/planRollback.ts', 'content/act/planRollback.ts'],
  ['content/planProblems.ts', 'content/act/planProblems.ts'],
  ['content/writeField.ts', 'content/act/writeField.ts'],
  ['content/fieldExpectation.ts', 'content/act/fieldExpectation.ts'],
  ['content/imageStage.ts', 'content/act/imageStage.ts'],
  ['content/sitesModule.ts', 'content/sites/sitesModule.ts'],
  ['content/sitesContract.ts', 'content/sites/sitesContract.ts'],
  ['content/siteReader.ts', 'content/sites/siteReader.ts'],
  ['content/adapters', 'content/sites/adapters'],
  ['content/readerModule.ts', 'content/reader/readerModule.ts'],
  ['content/readerContract.ts', 'content/reader/readerContract.ts'],
  ['content/articleReader.ts', 'content/reader/articleReader.ts'],
  ['content/blockText.ts', 'content/reader/blockText.ts'],
  ['content/imageList.ts', 'content/reader/imageList.ts'],

  // background/: the worker's channel to Tether's own pages (not a second registration.ts).
  ['background/registration.ts', 'background/uiChannel.ts'],

  // shared/: by channel — agent/ (the agent protocol: tools, plans, results), page/ (worker ↔
  // content script), native/ (worker ↔ native host), link/ (the paired, sealed connection of the
  // bridge and its peers), extension/ (Tether's own pages and the keeper ↔ worker) — and model/
  // (the plain data and rules the worker and its pages share). errors.ts, ids.ts and imageBytes.ts
  // stay at shared/ (every layer's).
  ['shared/protocol.ts', 'shared/agent/agentProtocol.ts'],
  ['shared/parseAgentRequest.ts', 'shared/agent/parseAgentRequest.ts'],
  ['shared/results.ts', 'shared/agent/results.ts'],
  ['shared/resultTypes.test.ts', 'shared/agent/resultTypes.test.ts'],
  ['shared/agentIdentity.ts', 'shared/agent/agentIdentity.ts'],
  ['shared/usage.ts', 'shared/agent/usage.ts'],
  ['shared/planSchema.ts', 'shared/agent/planSchema.ts'],
  ['shared/planImages.ts', 'shared/agent/planImages.ts'],
  ['shared/pageProtocol.ts', 'shared/page/pageProtocol.ts'],
  ['shared/pageChannel.ts', 'shared/page/pageChannel.ts'],
  ['shared/smartEditorCall.ts', 'shared/page/smartEditorCall.ts'],
  ['shared/smartEditorNames.ts', 'shared/page/smartEditorNames.ts'],
  ['shared/elementBinding.ts', 'shared/page/elementBinding.ts'],
  ['shared/documentKey.ts', 'shared/page/documentKey.ts'],
  ['shared/fieldText.ts', 'shared/page/fieldText.ts'],
  ['shared/textPiece.ts', 'shared/page/textPiece.ts'],
  ['shared/nativeProtocol.ts', 'shared/native/nativeProtocol.ts'],
  ['shared/bridgeProtocol.ts', 'shared/link/bridgeProtocol.ts'],
  ['shared/bridgePort.ts', 'shared/link/bridgePort.ts'],
  ['shared/pairedConnection.ts', 'shared/link/pairedConnection.ts'],
  ['shared/pairingHandshake.ts', 'shared/link/pairingHandshake.ts'],
  ['shared/pairingProof.ts', 'shared/link/pairingProof.ts'],
  ['shared/sealedChannel.ts', 'shared/link/sealedChannel.ts'],
  ['shared/parseFrame.ts', 'shared/link/parseFrame.ts'],
  ['shared/runtimeProtocol.ts', 'shared/extension/uiProtocol.ts'],
  ['shared/keeperProtocol.ts', 'shared/extension/keeperProtocol.ts'],
  ['shared/model.ts', 'shared/model/targetModel.ts'],
  ['shared/modelSchemas.ts', 'shared/model/targetModelSchemas.ts'],
  ['shared/approval.ts', 'shared/model/approval.ts'],
  ['shared/question.ts', 'shared/model/question.ts'],
  ['shared/journalRecord.ts', 'shared/model/journalRecord.ts'],
  ['shared/matchSite.ts', 'shared/model/matchSite.ts'],
  ['shared/checkAccount.ts', 'shared/model/checkAccount.ts'],
  ['shared/describePlan.ts', 'shared/model/describePlan.ts'],
  ['shared/explain.ts', 'shared/model/explain.ts'],
  ['shared/planDigest.ts', 'shared/model/planDigest.ts'],
];

/**
 * Lines that name a moved file in a way no reference rewriting can see (paths computed at run
 * time, a glob), each fixed by hand once: [file after the moves, text, replacement].
 */
const PATCHES = [
  // Run from source, the installer finds the built host from its own folder: one level deeper now.
  ['bridge/install/install.ts', "hereResolve(here, '..', 'dist-bridge', 'tether-host.js')", "hereResolve(here, '..', '..', 'dist-bridge', 'tether-host.js')"],
  // The core may not load the worker's channel to its pages (it was registration.ts).
  ['eslint.config.js', "'../registration.ts'", "'../uiChannel.ts'"],
  // The build compiles the tool list from the MCP server's tool file, by path segments.
  ['scripts/toolList.mjs', "resolve(root, 'bridge', 'mcpTools.ts')", "resolve(root, 'bridge', 'mcp', 'mcpTools.ts')"],
  // The worker's registration.ts, named bare where the bare name is ambiguous (content/ had one too).
  ['docs/architecture.md', '`registration.ts` and `uiHandlers.ts` serve the', '`uiChannel.ts` and `uiHandlers.ts` serve the'],
  ['extension/ui/api.ts', "worker's registration.ts)", "worker's uiChannel.ts)"],
  // The plan runner's files, for mutation testing.
  ['stryker.config.mjs', "'content/act/runPlan.ts', 'content/plan*.ts'", "'content/act/runPlan.ts', 'content/act/plan*.ts'"],
];

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|yml|yaml|html)$/;
const SKIP = /^(node_modules|dist[^/]*|release|reports|test-results|\.stryker-tmp|bench\/out|playwright-report)\/|(^|\/)package-lock\.json$/;

/** This script names the old paths on purpose: it is never rewritten. */
const SELF = 'scripts/reorganise.mjs';

function tracked() {
  return git('ls-files', '-z')
    .split('\0')
    .filter((file) => file !== '' && file !== SELF && !SKIP.test(file) && existsSync(join(ROOT, file)));
}

/** Every file move of this run (folders expanded, tests following their module), old → new. */
function planMoves(files) {
  const present = new Set(files);
  const moves = new Map();
  const add = (from, to) => {
    if (!present.has(from) || existsSync(join(ROOT, to)) || moves.has(from)) return;
    moves.set(from, to);
  };
  for (const [from, to] of MOVES) {
    const inFolder = files.filter((file) => file.startsWith(`${from}/`));
    if (inFolder.length > 0) {
      for (const file of inFolder) add(file, to + file.slice(from.length));
      continue;
    }
    add(from, to);
    for (const suffix of ['.test.ts', '.property.test.ts']) add(from.replace(/\.ts$/, suffix), to.replace(/\.ts$/, suffix));
  }
  return moves;
}

const toPosix = (path) => path.split('\\').join('/');

/** A relative specifier from `fromFile` to `target` (repository paths), as imports write it. */
function specifier(fromFile, target) {
  const spec = toPosix(relative(dirname(fromFile), target));
  return spec.startsWith('.') ? spec : `./${spec}`;
}

/** Rewrites relative string literals in code: each that names a repository path, from where the file was to where it is. */
function rewriteCode(text, oldFile, newFile, moves, exists) {
  return text.replace(/(['"`])(\.\.?\/(?:\.\.\/)*[^'"`\s./][^'"`\s]*)\1/g, (whole, quote, spec) => {
    const target = posix.normalize(posix.join(posix.dirname(oldFile), spec));
    const trailing = spec.endsWith('/') ? '/' : '';
    const clean = target.replace(/\/$/, '');
    if (!exists(clean)) return whole;
    const moved = moves.get(clean) ?? movedFolder(clean, moves) ?? clean;
    if (moved === clean && oldFile === newFile) return whole;
    return `${quote}${specifier(newFile, moved)}${trailing}${quote}`;
  });
}

/** A folder all of whose files moved to one new folder (content/adapters → content/sites/adapters). */
function movedFolder(folder, moves) {
  for (const [from, to] of MOVES) if (folder === from && [...moves.keys()].some((file) => file.startsWith(`${from}/`))) return to;
  return null;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Repository paths (and unambiguous bare names) of moved files, in docs, configs and comments. */
function rewritePaths(text, file, moves, bareNames) {
  let out = text;
  // Longest first, so content/adapters/claims.ts is rewritten as a file before content/adapters/ as a folder.
  // `../shared/protocol.ts` in a doc link or comment: the path after the dots is a repository path.
  const pairs = [...moves, ...MOVES.filter(([from]) => !from.endsWith('.ts'))].sort((a, b) => b[0].length - a[0].length);
  for (const [from, to] of pairs) out = out.replace(new RegExp(`(?<![\\w-])${escape(from)}(?![\\w-])`, 'g'), to);
  for (const [name, byTop] of bareNames) {
    const top = file.split('/')[0];
    const to = byTop.get(top) ?? (byTop.size === 1 ? [...byTop.values()][0] : undefined);
    if (to === undefined) continue;
    out = out.replace(new RegExp(`(?<![\\w./-])${escape(name)}(?![\\w-])`, 'g'), to);
  }
  return out;
}

/**
 * Bare file names that change (registration.ts → pageChannelServer.ts), each only when it names
 * one file in the top folder of the mention (content/ for content/, background/ for background/),
 * or one file anywhere.
 */
function bareNamesOf(moves, files) {
  const byName = new Map();
  for (const file of files) {
    const name = posix.basename(file);
    byName.set(name, (byName.get(name) ?? 0) + 1);
  }
  const names = new Map();
  for (const [from, to] of moves) {
    const oldName = posix.basename(from);
    const newName = posix.basename(to);
    if (oldName === newName) continue;
    const top = from.split('/')[0];
    const byTop = names.get(oldName) ?? new Map();
    byTop.set(top, newName);
    names.set(oldName, byTop);
  }
  // A name two files share in one top folder, or that an unmoved file also has, is ambiguous there.
  for (const [name, byTop] of names) {
    const movedCount = [...moves.keys()].filter((from) => posix.basename(from) === name).length;
    if ((byName.get(name) ?? 0) > movedCount) names.delete(name);
    else if (movedCount > byTop.size) names.delete(name);
  }
  return names;
}

function main() {
  if (!DRY && git('status', '--porcelain').trim() !== '') {
    console.error('reorganise: the work tree has changes; commit or stash them first.');
    process.exit(1);
  }
  const files = tracked();
  const moves = planMoves(files);
  for (const [from, to] of moves) console.log(`${from} → ${to}`);
  if (DRY || moves.size === 0) {
    console.log(moves.size === 0 ? 'reorganise: nothing to move (already done).' : `reorganise: ${moves.size} moves (dry run).`);
    return;
  }
  const present = new Set(files);
  const folders = new Set(
    files.flatMap((file) =>
      file
        .split('/')
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  );
  const exists = (path) => present.has(path) || folders.has(path);
  const bareNames = bareNamesOf(moves, files);

  // Every text file's new content, computed from the tree as it was; then the moves; then the writes.
  const writes = new Map();
  for (const file of files) {
    if (!TEXT.test(file)) continue;
    const newFile = moves.get(file) ?? file;
    const text = readFileSync(join(ROOT, file), 'utf8');
    let out = CODE.test(file) ? rewriteCode(text, file, newFile, moves, exists) : text;
    out = rewritePaths(out, file, moves, bareNames);
    if (out !== text || newFile !== file) writes.set(newFile, out);
  }
  for (const [from, to] of moves) {
    execFileSync('mkdir', ['-p', dirname(join(ROOT, to))]);
    git('mv', from, to);
  }
  for (const [file, text] of writes) writeFileSync(join(ROOT, file), text);
  for (const [file, from, to] of PATCHES) {
    const path = join(ROOT, file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    if (text.includes(from)) writeFileSync(path, text.split(from).join(to));
  }
  console.log(
    `reorganise: ${moves.size} files moved, ${writes.size} files rewritten. Next: npm run format && npm run typecheck && npm run lint && npx vitest run`,
  );
}

main();
