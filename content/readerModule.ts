/**
 * The reader module's entry (built to content-read.js, injected by the worker into the bound
 * document only when an inspect reads `article` or `comments` there). It registers with the
 * content script through the isolated world's hook and does nothing else: a page cannot load or
 * reach it.
 */
import { readArticle, readComments } from './articleReader.ts';
import { findImage, listImages } from './imageList.ts';
import { readerHook } from './readerHook.ts';

readerHook()?.register({ article: readArticle, comments: readComments, images: listImages, image: (name) => findImage(name) });
