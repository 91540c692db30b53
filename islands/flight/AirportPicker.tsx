// AirportPicker is an airport-or-city autocomplete over GET /base/v2/airports,
// following the WAI-ARIA 1.2 combobox pattern. A city is offered together
// with its airports; only a place from the list can be chosen (spec §5), so
// free text never reaches a search.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../useT';
import { comboboxKeyDown } from '../comboboxKeys';
import { call } from './api';
import type { Place } from './types';

export type AirportPickerProps = {
  id: string;
  label: string;
  value: Place | null;
  onChange: (p: Place | null) => void;
  error?: string;
  debounceMs?: number;
};

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

export function AirportPicker({ id, label, value, onChange, error, debounceMs = 250 }: AirportPickerProps) {
  const { t, lang } = useT();
  const listId = useId();
  const errorId = `${id}-error`;
  const [text, setText] = useState(placeLabel(value));
  const [options, setOptions] = useState<Option[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const abort = useRef<AbortController | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // keepText: the field itself dropped the choice, so what the user typed stays.
  const keepText = useRef(false);

  // A value set from outside (swap, defaults, a restored search) shows in the field.
  useEffect(() => {
    if (keepText.current) {
      keepText.current = false;
      return;
    }
    setText(placeLabel(value));
  }, [value?.code, value?.type, value?.name]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      abort.current?.abort();
    },
    [],
  );

  useEffect(() => {
    if (active < 0 || !listRef.current) return;
    const el = listRef.current.querySelector<HTMLElement>(`[data-index="${active}"]`);
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  function lookup(q: string) {
    if (timer.current) clearTimeout(timer.current);
    abort.current?.abort();
    const query = q.trim();
    if (!query) {
      setOptions([]);
      setLoading(false);
      return;
    }
    setLoading(true);
    timer.current = setTimeout(async () => {
      const n = ++seq.current;
      const ctl = new AbortController();
      abort.current = ctl;
      try {
        const data = await call<Place[]>('GET', `/base/v2/airports?q=${encodeURIComponent(query)}&limit=10`, undefined, { lang, signal: ctl.signal });
        if (n !== seq.current) return;
        setOptions(flatten(Array.isArray(data) ? data : []));
        setFailed(false);
      } catch {
        if (n !== seq.current || ctl.signal.aborted) return;
        setOptions([]);
        setFailed(true);
      } finally {
        if (n === seq.current) setLoading(false);
      }
    }, debounceMs);
  }

  function choose(o: Option) {
    onChange(o.place);
    setText(placeLabel(o.place));
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(ev: KeyboardEvent<HTMLInputElement>) {
    if ((ev.key === 'Home' || ev.key === 'End') && open && options.length) {
      ev.preventDefault();
      setActive(ev.key === 'Home' ? 0 : options.length - 1);
      return;
    }
    comboboxKeyDown(ev, { open, active, options, setOpen, setActive, choose });
  }

  // Leaving the field: the text must name the chosen place, or a code of the
  // list typed in full; anything else is no choice at all.
  function onBlur() {
    setOpen(false);
    setActive(-1);
    const typed = text.trim();
    if (!typed) {
      if (value) onChange(null);
      return;
    }
    const drop = () => {
      if (!value) return;
      keepText.current = true;
      onChange(null);
    };
    if (value && typed === placeLabel(value)) return;
    const upper = typed.toUpperCase();
    const exact = options.find((o) => o.place.code.toUpperCase() === upper) || (options.length === 1 ? options[0] : undefined);
    if (exact) choose(exact);
    else drop();
  }

  const activeId = active >= 0 && options[active] ? `${listId}-${active}` : undefined;
  const describedBy = error ? errorId : undefined;
  let status = '';
  if (open && text.trim() && !loading) {
    status = failed ? t('axios.network.error') : options.length ? t('flight.airport.results', { count: options.length }) : t('flight.airport.noResults');
  }
  return (
    <div className={error ? 'fs-field fs-airport field-invalid' : 'fs-field fs-airport'}>
      <label htmlFor={id}>{label}</label>
      <div className="fs-combo">
        <input
          id={id}
          type="text"
          role="combobox"
          className="fs-input"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          placeholder={t('flight.airport.placeholder')}
          value={text}
          onChange={(ev) => {
            setText(ev.target.value);
            setOpen(true);
            setActive(-1);
            lookup(ev.target.value);
          }}
          onFocus={(ev) => {
            if (value) ev.currentTarget.select();
          }}
          onBlur={onBlur}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" ref={listRef} className="fs-combo-list" hidden={!open || !text.trim()} aria-label={label}>
          {options.map((o, i) => (
            <li
              key={`${o.place.type}:${o.place.code}`}
              id={`${listId}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={`fs-option fs-option-${o.place.type}${o.level ? ' fs-option-nested' : ''}${i === active ? ' is-active' : ''}`}
              // mousedown, not click: it comes before the input's blur.
              onMouseDown={(ev) => {
                ev.preventDefault();
                choose(o);
              }}
            >
              <span className="fs-option-name">
                {o.place.name} <span className="fs-code">{o.place.code}</span>
              </span>
              <span className="fs-option-meta">
                {o.place.type === 'city'
                  ? [t('flight.airport.allAirports'), o.place.countryName].filter(Boolean).join(' · ')
                  : [o.place.cityName, o.place.countryName].filter(Boolean).join(', ')}
              </span>
            </li>
          ))}
          {loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {t('flight.airport.loading')}
            </li>
          )}
          {!loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {failed ? t('axios.network.error') : t('flight.airport.noResults')}
            </li>
          )}
        </ul>
      </div>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
