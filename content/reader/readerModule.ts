/**
 * The reader module's entry (built to content-read.js, injected by the worker into the bound
 * document only when an inspect reads `article` or `comments` there). It registers with the
 * content script through its slot in the isolated world (moduleSlot.ts) and does nothing else: a page cannot load or
 * reach it.
 */
import { readArticle, readComments } from './articleReader.ts';
import { findImage, listImages } from './imageList.ts';
import { readerSlot } from '../moduleSlot.ts';
import { tetherError } from '../../shared/errors.ts';

readerSlot.get()?.register({
  article: readArticle,
  comments: readComments,
  images: listImages,
  // The whole answer is made here, so the content script every page loads carries none of it.
  image: (name) => {
    const found = findImage(String(name).slice(0, 100));
    return found.ok ? found : { ok: false, error: tetherError('invalid_request', found.problem) };
  },
});
