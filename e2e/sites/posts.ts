/**
 * What the local sites keep (a site's posts and drafts) and the sites' names: the types the pages
 * (pages.ts) and the server (server.ts) share, below both so neither imports the other.
 */
export type SiteName = 'blog' | 'cafe' | 'notes';

export interface Post {
  id: number;
  title: string;
  body: string;
  category: string;
  author: string;
  createdAt: number;
}

export interface Draft {
  title: string;
  body: string;
  savedAt: number;
}
