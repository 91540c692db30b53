// AirportPicker is an airport-or-city autocomplete over GET /base/v2/airports
// (a PlacePicker). A city is offered together with its airports; only a
// place from the list can be chosen (spec §5), so free text never reaches a
// search.
import { useT } from '../useT';
import { PlacePicker, type PickerFieldProps } from '../PlacePicker';
import { call } from './api';
import type { Place } from './types';

export type AirportPickerProps = PickerFieldProps<Place>;

type Option = { place: Place; level: 0 | 1 };

// placeLabel is how a chosen place reads in the field.
export function placeLabel(p: Place | null): string {
  if (!p) return '';
  return p.name && p.name !== p.code ? `${p.name} (${p.code})` : p.code;
}

// cityOf is the city code a place belongs to (spec §5 compares journeys
// after mapping airports to their cities).
export function cityOf(p: Place | null): string {
  if (!p) return '';
  if (p.type === 'city') return p.code;
  return p.cityCode || p.code;
}

// flatten lists each answer and, under a city, its airports, once each.
export function flatten(places: Place[]): Option[] {
  const out: Option[] = [];
  const seen = new Set<string>();
  const add = (place: Place, level: 0 | 1) => {
    const key = `${place.type}:${place.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ place, level });
  };
  for (const p of places) {
    if (!p || !p.code) continue;
    add(p, 0);
    if (p.type === 'city') {
      for (const a of p.airports || []) {
        add({ ...a, type: 'airport', cityCode: a.cityCode || p.code, cityName: a.cityName || p.name, country: a.country || p.country, countryName: a.countryName || p.countryName }, 1);
      }
    }
  }
  return out;
}

export function AirportPicker({ debounceMs = 250, ...field }: AirportPickerProps) {
  const { t } = useT();
  return (
    <PlacePicker<Place, Option>
      {...field}
      debounceMs={debounceMs}
      lookup={async (q, lang, signal) => {
        const data = await call<Place[]>('GET', `/base/v2/airports?q=${encodeURIComponent(q)}&limit=10`, undefined, { lang, signal });
        return flatten(Array.isArray(data) ? data : []);
      }}
      valueOf={(o) => o.place}
      codeOf={(o) => o.place.code}
      keyOf={(o) => `${o.place.type}:${o.place.code}`}
      textOf={placeLabel}
      valueKey={`${field.value?.type}:${field.value?.code}:${field.value?.name}`}
      optionClass={(o) => `fs-option-${o.place.type}${o.level ? ' fs-option-nested' : ''}`}
      option={(o) => (
        <>
          <span className="fs-option-name">
            {o.place.name} <span className="fs-code">{o.place.code}</span>
          </span>
          <span className="fs-option-meta">
            {o.place.type === 'city'
              ? [t('flight.airport.allAirports'), o.place.countryName].filter(Boolean).join(' · ')
              : [o.place.cityName, o.place.countryName].filter(Boolean).join(', ')}
          </span>
        </>
      )}
      catalog="flight.airport"
    />
  );
}
