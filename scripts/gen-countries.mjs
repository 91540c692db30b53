// Generates pkg/geo/countries.json: every ISO 3166-1 alpha-2 country with its
// name in English and Simplified Chinese from i18n-iso-countries (MIT), and in
// Traditional Chinese converted from the Simplified name with opencc-js (MIT,
// Taiwan phrases). `alt` holds the other English names, for search. Run with `npm run countries`; the output is committed so the
// Go build needs no node.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as OpenCC from 'opencc-js';

const require = createRequire(import.meta.url);
const countries = require('i18n-iso-countries');
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
countries.registerLocale(require('i18n-iso-countries/langs/zh.json'));

const toTW = OpenCC.Converter({ from: 'cn', to: 'twp' });
const en = countries.getNames('en', { select: 'official' });
const enAll = countries.getNames('en', { select: 'all' });
const zh = countries.getNames('zh', { select: 'official' });

const rows = Object.keys(en)
  .sort()
  .map((code) => {
    const row = { code, en: en[code], 'zh-cn': zh[code] || en[code], 'zh-tw': toTW(zh[code] || en[code]) };
    // Other English names ("China", "UK", "USA") so people find a country by
    // the name they use rather than the official one.
    const alt = (enAll[code] || []).filter((n) => n !== en[code]);
    if (alt.length) row.alt = alt;
    return row;
  });

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'pkg', 'geo', 'countries.json');
writeFileSync(out, JSON.stringify(rows, null, 1) + '\n');
console.log(`wrote ${rows.length} countries to ${out}`);
