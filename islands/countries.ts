// Country names come from pkg/geo/countries.json, the file the server embeds,
// so the island and the no-JavaScript select list the same countries.
export type Country = { code: string; en: string; 'zh-cn': string; 'zh-tw': string; alt?: string[] };

let cache: Promise<Country[]> | null = null;

export function loadCountries(): Promise<Country[]> {
  cache ??= import('../pkg/geo/countries.json').then((m) => m.default as Country[]);
  return cache;
}

export function countryName(c: Country, lang: string): string {
  return (c as Record<string, unknown>)[lang] as string || c.en;
}

const htmlLang: Record<string, string> = { en: 'en', 'zh-cn': 'zh-CN', 'zh-tw': 'zh-TW' };

// sortCountries orders by the name in lang with the browser's collator
// (pinyin for zh-CN, stroke count for zh-TW), as the server does.
export function sortCountries(list: Country[], lang: string): Country[] {
  const col = new Intl.Collator(htmlLang[lang] || 'en');
  return [...list].sort((a, b) => col.compare(countryName(a, lang), countryName(b, lang)));
}

function fold(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

// filterCountries keeps the countries whose code or any name contains the
// query: exact names and codes first, then names that start with it.
export function filterCountries(list: Country[], query: string, lang: string): Country[] {
  const q = fold(query);
  if (!q) return list;
  const exact: Country[] = [];
  const starts: Country[] = [];
  const contains: Country[] = [];
  for (const c of list) {
    const names = [countryName(c, lang), c.en, c['zh-cn'], c['zh-tw'], ...(c.alt || [])].map(fold);
    if (c.code.toLowerCase() === q || names.some((n) => n === q)) exact.push(c);
    else if (names.some((n) => n.startsWith(q))) starts.push(c);
    else if (names.some((n) => n.includes(q))) contains.push(c);
  }
  return [...exact, ...starts, ...contains];
}
