/**
 * How a site or platform named in a request matches a tab, from its URL alone (R1, R3).
 *
 * A name may be a URL or host ("cafe.naver.com", "http://blog.localhost:4173"), a known platform
 * in English or Korean ("naver cafe", "네이버 블로그"), or a bare word that is one label of the
 * host or a kind of site ("blog" matches blog.localhost and any known blog platform).
 */

export interface Platform {
  id: string;
  kind: 'blog' | 'cafe' | 'community' | 'mail' | 'docs';
  /** Lower-case names a person or agent might use, English and Korean. */
  names: string[];
  /** Host suffixes: "tistory.com" matches "alice.tistory.com". */
  hosts: string[];
}

export const PLATFORMS: readonly Platform[] = [
  { id: 'naver-blog', kind: 'blog', names: ['naver blog', '네이버 블로그', '네이버블로그'], hosts: ['blog.naver.com'] },
  { id: 'naver-cafe', kind: 'cafe', names: ['naver cafe', '네이버 카페', '네이버카페'], hosts: ['cafe.naver.com'] },
  { id: 'daum-cafe', kind: 'cafe', names: ['daum cafe', '다음 카페', '다음카페'], hosts: ['cafe.daum.net'] },
  { id: 'tistory', kind: 'blog', names: ['tistory', '티스토리'], hosts: ['tistory.com'] },
  { id: 'brunch', kind: 'blog', names: ['brunch', '브런치'], hosts: ['brunch.co.kr'] },
  { id: 'velog', kind: 'blog', names: ['velog', '벨로그'], hosts: ['velog.io'] },
  { id: 'medium', kind: 'blog', names: ['medium'], hosts: ['medium.com'] },
  { id: 'wordpress', kind: 'blog', names: ['wordpress', '워드프레스'], hosts: ['wordpress.com'] },
  { id: 'gmail', kind: 'mail', names: ['gmail', '지메일'], hosts: ['mail.google.com'] },
  { id: 'google-docs', kind: 'docs', names: ['google docs', '구글 문서'], hosts: ['docs.google.com'] },
];

/** Kind words, English and Korean, so "블로그" means what "blog" means. */
const KIND_WORDS: Record<string, Platform['kind']> = {
  blog: 'blog',
  블로그: 'blog',
  cafe: 'cafe',
  카페: 'cafe',
  community: 'community',
  커뮤니티: 'community',
  mail: 'mail',
  메일: 'mail',
  docs: 'docs',
  문서: 'docs',
};

const DOT = 46; // '.'

function hostMatchesSuffix(host: string, suffix: string): boolean {
  return host === suffix || (host.endsWith(suffix) && host.charCodeAt(host.length - suffix.length - 1) === DOT);
}

const PLATFORM_HOSTS = PLATFORMS.flatMap((platform) => platform.hosts.map((suffix) => ({ suffix, platform })));

function platformOfHost(host: string): Platform | undefined {
  return PLATFORM_HOSTS.find(({ suffix }) => hostMatchesSuffix(host, suffix))?.platform;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Parses "host", "host:port" or a full URL into what must match; null when it is just a word. */
function parseHostName(name: string): { host: string; port: string | null; protocol: string | null } | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name)) {
    try {
      const url = new URL(name);
      return { host: url.hostname, port: url.port || null, protocol: url.protocol };
    } catch {
      return null;
    }
  }
  const hostPort = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+|localhost)(?::(\d+))?$/.exec(name);
  if (!hostPort || hostPort[1] === undefined) return null;
  return { host: hostPort[1], port: hostPort[2] ?? null, protocol: null };
}

export function normalizeSiteName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The host of an http(s) URL without constructing a URL object (the resolver runs this per tab). */
function fastHost(url: string): string | null {
  const match = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]+)/i.exec(url);
  return match?.[1] ? match[1].toLowerCase() : null;
}

/**
 * Compiles a site name once into a test of tab URLs: the resolver narrows thousands of tabs by
 * metadata, so the name is parsed once, not once per tab.
 */
export function siteMatcher(name: string): (url: string) => boolean {
  const wanted = normalizeSiteName(name);
  if (wanted === '') return () => false;

  const asHost = parseHostName(wanted);
  if (asHost) {
    return (url) => {
      if (!asHost.protocol && !asHost.port) {
        const host = fastHost(url);
        return host !== null && hostMatchesSuffix(host, asHost.host);
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (asHost.protocol && parsed.protocol !== asHost.protocol) return false;
      if (asHost.port && parsed.port !== asHost.port) return false;
      return hostMatchesSuffix(parsed.hostname, asHost.host);
    };
  }

  const platform = PLATFORMS.find((candidate) => candidate.names.includes(wanted) || candidate.id === wanted);
  if (platform) {
    return (url) => {
      const host = fastHost(url);
      return host !== null && platform.hosts.some((suffix) => hostMatchesSuffix(host, suffix));
    };
  }

  const kind = KIND_WORDS[wanted];
  // One label of the host: "blog" in blog.localhost; "블로그" finds blog.localhost as "blog" does.
  const label = new RegExp(`(?:^|\\.)(?:${escapeRegExp(wanted)}${kind ? `|${kind}` : ''})(?:\\.|$)`);
  return (url) => {
    const host = fastHost(url);
    if (!host) return false;
    if (kind && platformOfHost(host)?.kind === kind) return true;
    return label.test(host);
  };
}

/** Does the tab at `url` belong to the site named `name`? */
export function siteMatches(name: string, url: string): boolean {
  return siteMatcher(name)(url);
}

/** A short human name for a site, for explanations: the host, or the platform's first name. */
export function siteLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return url;
  }
}
