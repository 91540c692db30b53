// StationPicker is a station autocomplete over GET /shopping/v2/train/stations,
// which matches names in English, Simplified and Traditional Chinese and
// pinyin. It follows the WAI-ARIA 1.2 combobox pattern: only a station of
// the list can be chosen, so free text never reaches a search.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../useT';
import { comboboxKeyDown } from '../comboboxKeys';
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
  const { t, lang } = useT();
  const listId = useId();
  const errorId = `${id}-error`;
  const [text, setText] = useState(stationLabel(value));
  const [options, setOptions] = useState<Station[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const abort = useRef<AbortController | null>(null);
  const keepText = useRef(false);

  useEffect(() => {
    if (keepText.current) {
      keepText.current = false;
      return;
    }
    setText(stationLabel(value));
  }, [value?.code, value?.name]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      abort.current?.abort();
    },
    [],
  );

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
        const data = await call<Station[]>('GET', `/shopping/v2/train/stations?q=${encodeURIComponent(query)}`, undefined, { lang, signal: ctl.signal });
        if (n !== seq.current) return;
        setOptions(Array.isArray(data) ? data.filter((s) => s && s.code) : []);
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

  function choose(s: Station) {
    onChange(s);
    setText(stationLabel(s));
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

  // Leaving the field: the text must name the chosen station, a code of the
  // list typed in full, or the list's only answer; else nothing is chosen.
  function onBlur() {
    setOpen(false);
    setActive(-1);
    const typed = text.trim();
    if (!typed) {
      if (value) onChange(null);
      return;
    }
    if (value && typed === stationLabel(value)) return;
    const upper = typed.toUpperCase();
    const exact = options.find((o) => o.code.toUpperCase() === upper) || (options.length === 1 ? options[0] : undefined);
    if (exact) choose(exact);
    else if (value) {
      keepText.current = true;
      onChange(null);
    }
  }

  const activeId = active >= 0 && options[active] ? `${listId}-${active}` : undefined;
  let status = '';
  if (open && text.trim() && !loading) {
    status = failed ? t('axios.network.error') : options.length ? t('trainportal.station.results', { count: options.length }) : t('trainportal.station.noResults');
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
          aria-describedby={error ? errorId : undefined}
          placeholder={t('trainportal.station.placeholder')}
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
        <ul id={listId} role="listbox" className="fs-combo-list" hidden={!open || !text.trim()} aria-label={label}>
          {options.map((s, i) => (
            <li
              key={s.code}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`fs-option${i === active ? ' is-active' : ''}`}
              onMouseDown={(ev) => {
                ev.preventDefault();
                choose(s);
              }}
            >
              <span className="fs-option-name">
                {s.name} <span className="fs-code">{s.code}</span>
              </span>
              {s.city && <span className="fs-option-meta">{s.city}</span>}
            </li>
          ))}
          {!loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {failed ? t('axios.network.error') : t('trainportal.station.noResults')}
            </li>
          )}
          {loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {t('trainportal.station.loading')}
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
