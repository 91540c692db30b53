// StationPicker is a station autocomplete over GET /shopping/v2/train/stations
// (a PlacePicker), which matches names in English, Simplified and
// Traditional Chinese and pinyin: only a station of the list can be chosen.
import { PlacePicker, type PickerFieldProps } from '../PlacePicker';
import { call } from '../flight/api';
import type { Station } from './types';

export type StationPickerProps = PickerFieldProps<Station>;

export function stationLabel(s: Station | null): string {
  if (!s) return '';
  return s.name ? `${s.name} (${s.code})` : s.code;
}

export function StationPicker({ debounceMs = 200, ...field }: StationPickerProps) {
  return (
    <PlacePicker<Station, Station>
      {...field}
      debounceMs={debounceMs}
      lookup={async (q, lang, signal) => {
        const data = await call<Station[]>('GET', `/shopping/v2/train/stations?q=${encodeURIComponent(q)}`, undefined, { lang, signal });
        return Array.isArray(data) ? data.filter((s) => s && s.code) : [];
      }}
      valueOf={(s) => s}
      codeOf={(s) => s.code}
      keyOf={(s) => s.code}
      textOf={stationLabel}
      valueKey={`${field.value?.code}:${field.value?.name}`}
      option={(s) => (
        <>
          <span className="fs-option-name">
            {s.name} <span className="fs-code">{s.code}</span>
          </span>
          {s.city && <span className="fs-option-meta">{s.city}</span>}
        </>
      )}
      catalog="trainportal.station"
    />
  );
}
