/**
 * The reader module's entry (built to content-read.js, injected by the worker into the bound
 * document only when an inspect reads `article` or `comments` there). It registers with the
 * content script through the isolated world's hook and does nothing else: a page cannot load or
 * reach it.
 */
import { readArticle, readComments } from './articleReader.ts';
import { findImage, listImages } from './imageList.ts';
import { readerHook } from './readerHook.ts';
import { tetherError } from '../shared/errors.ts';

readerHook()?.register({
  article: readArticle,
  comments: readComments,
  images: listImages,
  // The whole answer is made here, so the content script every page loads carries none of it.
  image: (name) => {
    const found = findImage(String(name).slice(0, 100));
    return found.ok ? found : { ok: false, error: tetherError('invalid_request', found.problem) };
  },
});
