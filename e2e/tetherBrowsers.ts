/** Which browser a project runs Tether in, and the tags that pick the tests of the Firefox project. */
export type TetherBrowser = 'chromium' | 'firefox';

/** Tests declared with `inBothBrowsers` (fixtures.ts) carry this tag. */
export const BOTH_BROWSERS = '@both-browsers';
/** Tests only Firefox has (e2e/firefox/): its sidebar, its event page, its langpacks. */
export const FIREFOX_ONLY = '@firefox-only';

/**
 * Tests of a Firefox without documentIds (ESR 140): a Firefox project runs them only when its
 * binary is older than the first version seen here to give documentIds (ESR 153), instead of
 * skipping them where they cannot apply.
 */
export const WITHOUT_DOCUMENT_IDS = '@without-document-ids';
export const FIREFOX_WITH_DOCUMENT_IDS = 153;

/** Debian's firefox-esr; TETHER_FIREFOX names another (or several, separated by ":"). */
export const DEFAULT_FIREFOX = '/usr/bin/firefox-esr';
