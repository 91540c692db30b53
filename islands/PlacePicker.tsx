// PlacePicker is the one autocomplete of places the islands offer (airports
// and cities for flights and groups, stations for trains), following the
// WAI-ARIA 1.2 combobox pattern: only a place of the list can be chosen, so
// free text never reaches a search. A line's picker says how to look places
// up, how a chosen one reads and how an option shows.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useT } from './useT';
import { comboboxKeyDown } from './comboboxKeys';

// PickerFieldProps are what a form gives a line's picker.
export type PickerFieldProps<V> = {
  id: string;
  label: string;
  value: V | null;
  onChange: (v: V | null) => void;
  error?: string;
  debounceMs?: number;
};

export type PlacePickerProps<V, O> = PickerFieldProps<V> & {
  debounceMs: number;
  // lookup answers the options for a query (in the page's language).
  lookup: (query: string, lang: string, signal: AbortSignal) => Promise<O[]>;
  // valueOf is the place an option chooses; codeOf the code typed in full
  // that chooses it; keyOf tells options apart.
  valueOf: (o: O) => V;
  codeOf: (o: O) => string;
  keyOf: (o: O) => string;
  // textOf is how a chosen place reads in the field; valueKey changes when
  // a value set from outside (a swap, a default, a restored search) is
  // another place.
  textOf: (v: V | null) => string;
  valueKey: string;
  option: (o: O) => ReactNode;
  optionClass?: (o: O) => string;
  // catalog is the prefix of the line's texts: catalog.placeholder,
  // catalog.loading, catalog.noResults and catalog.results (with count).
  catalog: string;
};

export function PlacePicker<V, O>(p: PlacePickerProps<V, O>) {
  const { t, lang } = useT();
  const { id, label, value, onChange, error, textOf } = p;
  const listId = useId();
  const errorId = `${id}-error`;
  const [text, setText] = useState(textOf(value));
  const [options, setOptions] = useState<O[]>([]);
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

  useEffect(() => {
    if (keepText.current) {
      keepText.current = false;
      return;
    }
    setText(textOf(value));
  }, [p.valueKey]);

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
        const found = await p.lookup(query, lang, ctl.signal);
        if (n !== seq.current) return;
        setOptions(found);
        setFailed(false);
      } catch {
        if (n !== seq.current || ctl.signal.aborted) return;
        setOptions([]);
        setFailed(true);
      } finally {
        if (n === seq.current) setLoading(false);
      }
    }, p.debounceMs);
  }

  function choose(o: O) {
    const v = p.valueOf(o);
    onChange(v);
    setText(textOf(v));
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

  // Leaving the field: the text must name the chosen place, a code of the
  // list typed in full, or the list's only answer; else nothing is chosen.
  function onBlur() {
    setOpen(false);
    setActive(-1);
    const typed = text.trim();
    if (!typed) {
      if (value) onChange(null);
      return;
    }
    if (value && typed === textOf(value)) return;
    const upper = typed.toUpperCase();
    const exact = options.find((o) => p.codeOf(o).toUpperCase() === upper) || (options.length === 1 ? options[0] : undefined);
    if (exact) choose(exact);
    else if (value) {
      keepText.current = true;
      onChange(null);
    }
  }

  const activeId = active >= 0 && options[active] ? `${listId}-${active}` : undefined;
  let status = '';
  if (open && text.trim() && !loading) {
    status = failed ? t('axios.network.error') : options.length ? t(`${p.catalog}.results`, { count: options.length }) : t(`${p.catalog}.noResults`);
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
          placeholder={t(`${p.catalog}.placeholder`)}
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
              key={p.keyOf(o)}
              id={`${listId}-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={`fs-option${p.optionClass ? ' ' + p.optionClass(o) : ''}${i === active ? ' is-active' : ''}`}
              // mousedown, not click: it comes before the input's blur.
              onMouseDown={(ev) => {
                ev.preventDefault();
                choose(o);
              }}
            >
              {p.option(o)}
            </li>
          ))}
          {loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {t(`${p.catalog}.loading`)}
            </li>
          )}
          {!loading && options.length === 0 && (
            <li className="fs-option-empty" role="option" aria-disabled="true" aria-selected={false}>
              {failed ? t('axios.network.error') : t(`${p.catalog}.noResults`)}
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
