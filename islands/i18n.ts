// i18next over the server's own catalogs (pkg/i18n/locales): one source of
// text for templ and the islands. Only the page's language is loaded.
import i18next, { type i18n } from 'i18next';

// The keys are flat and dotted ("application.field.country"), exactly as the
// Go catalog reads them, so i18next must not split them.
const catalogs = import.meta.glob<Record<string, string>>('../pkg/i18n/locales/*/*.json', { import: 'default' });

export const languages = ['en', 'zh-cn', 'zh-tw'] as const;
export type Lang = (typeof languages)[number];

// langFromHTML maps <html lang> (en, zh-CN, zh-TW) to a catalog language.
export function langFromHTML(tag: string | null | undefined): Lang {
  const t = (tag || '').toLowerCase();
  if (t.startsWith('zh')) {
    return t.includes('tw') || t.includes('hk') || t.includes('hant') || t.includes('mo') ? 'zh-tw' : 'zh-cn';
  }
  return t.startsWith('en') ? 'en' : 'zh-cn';
}

export async function loadMessages(lang: Lang): Promise<Record<string, string>> {
  const prefix = `../pkg/i18n/locales/${lang}/`;
  const parts = await Promise.all(
    Object.entries(catalogs)
      .filter(([path]) => path.startsWith(prefix))
      .map(([, load]) => load()),
  );
  return Object.assign({}, ...parts);
}

// reportMissing tells of a key the catalog lacks: the island shows its
// reader the raw key. A console error, which the browser tests (the walk
// of every page among them) fail on, and which a reader's console shows.
export function reportMissing(lngs: readonly string[], key: string): void {
  console.error(`i18n: missing catalog key ${key} (${lngs.join(', ')})`);
}

export async function initI18n(lang: Lang): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: false,
    // Our codes are lower case (zh-tw); i18next would otherwise look for zh-TW.
    lowerCaseLng: true,
    keySeparator: false,
    nsSeparator: false,
    resources: { [lang]: { translation: await loadMessages(lang) } },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
    // saveMissing is what makes i18next call missingKeyHandler; nothing is
    // saved anywhere (no backend).
    saveMissing: true,
    missingKeyHandler: (lngs, _ns, key) => reportMissing(lngs, key),
  });
  return instance;
}
