/**
 * Types the pure core and the layers above it share, kept here at the bottom so that no module
 * takes a type from a layer above it (that is how import cycles start; eslint.config.js refuses
 * value cycles). Only types: nothing here runs.
 */
import type { AgentSession } from '../../shared/agent/agentIdentity.ts';
import type { ClickPin } from '../../shared/page/elementBinding.ts';
import type { Lang } from '../../shared/model/explain.ts';
import type { TargetBinding } from '../../shared/model/targetModel.ts';
import type { Plan } from '../../shared/agent/agentProtocol.ts';
import type { ImageType } from '../../shared/imageBytes.ts';
import type { ImageSourceKind } from '../../shared/agent/planImages.ts';

/** A zustand store as the tools use it (the persisted stores' writes may return a promise: await them). */
export interface StateAccess<T> {
  getState(): T;
  setState(change: Partial<T> | ((state: T) => Partial<T>)): unknown;
}

/** One act to run: from an agent's request now, or kept for later (scheduledAct.ts). */
export interface ActInput {
  handle: string;
  binding: TargetBinding;
  plan: Plan;
  inspected: Record<string, string>;
  /** The element each field name meant when the handle last saw the page. */
  elements: Record<string, string>;
  /** The element each click was validated (and approved) against at the dry run. */
  pins?: ClickPin[];
  requestId: string;
  /** Publish/submit-type steps may run: the person approved this plan, or the site allows them. */
  mayPublish?: boolean;
  /** The language the agent reads the answer in. */
  lang?: Lang;
  /** The act's images, their bytes checked (tools/actImages.ts); `plan` is then the page's plan, without bytes. Never kept for a schedule. */
  images?: ActImage[];
  /** Who acts: the agent whose request it is (for a scheduled act, the one that scheduled it). */
  agent?: AgentSession;
  /** The hold the act's handle was minted under (none: a scheduled act firing, which holds the tab itself). */
  holdId?: string;
}

/** One image of an act, its bytes checked (tools/actImages.ts). */
export interface ActImage {
  /** Where in the plan (shared/agent/planImages.ts: `3`, `3/ridge`). */
  use: string;
  /** The id its bytes are staged under in the page. */
  id: string;
  kind: ImageSourceKind;
  /** The file name it goes to the site as. */
  name: string;
  /** Where it comes from, in words to show: the file's path, or the reference page's site and the image's name. */
  from: string;
  type: ImageType;
  width: number;
  height: number;
  bytes: number;
  data: string;
  sha256: string;
}
