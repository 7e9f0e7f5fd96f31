/**
 * The act module's entry (built to content-act.js, injected by the worker into the bound document
 * only when an act or a markdown read needs it). It registers with the content script through its
 * slot in the isolated world (moduleSlot.ts) and does nothing else: a page cannot load or reach it.
 */
import { tetherError } from '../../shared/errors.ts';
import { pageActRequestSchema, pageStageSchema } from '../../shared/page/pageProtocol.ts';
import { stageImage } from './imageStage.ts';
import { actSlot } from '../moduleSlot.ts';
import { bindHost } from './actHost.ts';
import { fieldMarkdown, regionMarkdown } from '../editors/markdownOut.ts';
import { actStatus, runPlan } from './runPlan.ts';

const slot = actSlot.get();
if (slot && !slot.module) {
  bindHost(slot.lent);
  slot.register({
    async act(message) {
      const parsed = pageActRequestSchema.safeParse(message);
      if (!parsed.success) return { ok: false, error: tetherError('invalid_request', 'Malformed act request.') };
      const request = parsed.data;
      const images = Object.fromEntries((request.images ?? []).map((image) => [image.use, image.id]));
      // A dry run has no bytes: the worker says each image's type (by its bytes) for the checks that need it (a file chooser's accept=).
      const types = Object.fromEntries((request.images ?? []).flatMap((image) => (image.type === undefined ? [] : [[image.use, image.type]])));
      const context = { inspected: request.inspected, elements: request.elements, pins: request.pins, requestId: request.requestId, images, types };
      return { ok: true, value: await runPlan(request.requestId, request.plan, context, request.dryRun, request.approved) };
    },
    actStatus,
    stageImage(message) {
      const parsed = pageStageSchema.safeParse(message);
      if (!parsed.success) return { ok: false, error: tetherError('invalid_request', 'Malformed image.') };
      return stageImage(parsed.data.requestId, parsed.data.id, parsed.data.name, parsed.data.data);
    },
    markdown: { field: fieldMarkdown, region: regionMarkdown },
  });
}
