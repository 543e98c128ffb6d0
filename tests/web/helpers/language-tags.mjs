// Language tags Intl rejects, which the lab must survive wherever a tag comes from (the browser, the host's lang):
// a POSIX locale's "C" (navigator.language in WebKit under LANG=C.UTF-8), an underscore, an empty tag, and
// 100 characters that are no tag.  And a valid 100-character tag (private-use subtags) that keeps its language.
export const BAD_TAGS = ['C', 'en_US', '', 'x'.repeat(100), `de-${'abcdefg-'.repeat(12)}abc`.slice(0, 100)];
export const LONG_GERMAN = `de-x-${Array.from({ length: 12 }, (_, i) => `abcdefg${'abcdefghijkl'[i]}`).join('-')}`.slice(0, 100);
