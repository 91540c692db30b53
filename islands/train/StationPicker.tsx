// StationPicker is a station autocomplete over GET /shopping/v2/train/stations
// (a PlacePicker), which matches names in English, Simplified and
// Traditional Chinese and pinyin: only a station of the list can be chosen.
import { useT } from '../useT';
import { PlacePicker } from '../PlacePicker';
import { call } from '../flight/api';
import type { Station } from './types';

export type StationPickerProps = {
  id: string;
  label: string;
  value: Station | null;
  onChange: (s: Station | null) => void;
  error?: string;
  debounceMs?: number;
};

export function stationLabel(s: Station | null): string {
  if (!s) return '';
  return s.name ? `${s.name} (${s.code})` : s.code;
}

export function StationPicker({ id, label, value, onChange, error, debounceMs = 200 }: StationPickerProps) {
  const { t } = useT();
  return (
    <PlacePicker<Station, Station>
      id={id}
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      debounceMs={debounceMs}
      lookup={async (q, lang, signal) => {
        const data = await call<Station[]>('GET', `/shopping/v2/train/stations?q=${encodeURIComponent(q)}`, undefined, { lang, signal });
        return Array.isArray(data) ? data.filter((s) => s && s.code) : [];
      }}
      valueOf={(s) => s}
      codeOf={(s) => s.code}
      keyOf={(s) => s.code}
      textOf={stationLabel}
      valueKey={`${value?.code}:${value?.name}`}
      option={(s) => (
        <>
          <span className="fs-option-name">
            {s.name} <span className="fs-code">{s.code}</span>
          </span>
          {s.city && <span className="fs-option-meta">{s.city}</span>}
        </>
      )}
      texts={{
        placeholder: t('trainportal.station.placeholder'),
        loading: t('trainportal.station.loading'),
        noResults: t('trainportal.station.noResults'),
        results: (count) => t('trainportal.station.results', { count }),
      }}
    />
  );
}
