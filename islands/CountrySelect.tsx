// CountrySelect is a searchable country picker following the WAI-ARIA 1.2
// combobox pattern (input + listbox). The chosen ISO code goes to the form in
// a hidden input, so the server receives exactly what the fallback <select>
// would have sent.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from './useT';
import { comboboxKeyDown } from './comboboxKeys';
import { countryName, filterCountries, loadCountries, sortCountries, type Country } from './countries';
import './CountrySelect.css';

export type CountrySelectProps = {
  name: string;
  id: string;
  value?: string;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  placeholder?: string;
  // onChange hears every change of the chosen code ('' when cleared), for
  // an island's own form; a page form reads the hidden input instead.
  onChange?: (code: string) => void;
};

const maxShown = 50;

export function CountrySelect({ name, id, value = '', required, invalid, describedBy, placeholder, onChange }: CountrySelectProps) {
  const { t, lang } = useT();
  const listId = useId();
  const [countries, setCountries] = useState<Country[]>([]);
  const [code, setCode] = useState(value);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listRef = useRef<HTMLUListElement>(null);
  // reported is the last code given to onChange: when the parent hands it
  // back as value, the text the user typed stays as it is. A value the
  // parent sets by itself (a form filled from elsewhere, or cleared) shows.
  const reported = useRef<string | null>(null);
  const shownValue = useRef(value);

  useEffect(() => {
    let alive = true;
    const changed = shownValue.current !== value;
    shownValue.current = value;
    const echo = changed && reported.current === value;
    reported.current = null;
    if (changed && !echo) {
      setCode(value);
      if (!value) setText('');
    }
    void loadCountries().then((list) => {
      if (!alive) return;
      const sorted = sortCountries(list, lang);
      setCountries(sorted);
      if (echo) return;
      const current = sorted.find((c) => c.code === value);
      if (current) setText(countryName(current, lang));
    });
    return () => {
      alive = false;
    };
  }, [lang, value]);

  function setChosen(next: string) {
    setCode(next);
    if (onChange && next !== code) {
      reported.current = next;
      onChange(next);
    }
  }

  const matches = useMemo(() => filterCountries(countries, text, lang), [countries, text, lang]);
  const shown = matches.slice(0, maxShown);

  useEffect(() => {
    if (active < 0 || !listRef.current) return;
    const el = listRef.current.children[active] as HTMLElement | undefined;
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  function choose(c: Country) {
    setChosen(c.code);
    setText(countryName(c, lang));
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(ev: KeyboardEvent<HTMLInputElement>) {
    comboboxKeyDown(ev, { open, active, options: shown, setOpen, setActive, choose });
  }

  // On leaving the field the text must name a country, or the choice is
  // cleared: the form never sends a code the user cannot see.
  function onBlur() {
    setOpen(false);
    setActive(-1);
    const typed = text.trim().toLowerCase();
    if (!typed) {
      setChosen('');
      return;
    }
    const exact = countries.find((c) => countryName(c, lang).toLowerCase() === typed || c.code.toLowerCase() === typed);
    if (exact) choose(exact);
    else if (!countries.some((c) => c.code === code && countryName(c, lang) === text)) setChosen('');
  }

  const activeId = active >= 0 && shown[active] ? `${listId}-${shown[active].code}` : undefined;
  return (
    <div className="country-select">
      <input
        id={id}
        type="text"
        role="combobox"
        className="country-select-input"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        placeholder={placeholder || t('islands.country.placeholder')}
        value={text}
        onChange={(ev) => {
          setText(ev.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={onBlur}
        onKeyDown={onKeyDown}
      />
      <input type="hidden" name={name} value={code} />
      <ul id={listId} role="listbox" ref={listRef} className="country-select-list" hidden={!open} aria-label={t('islands.country.listLabel')}>
        {shown.map((c, i) => (
          <li
            key={c.code}
            id={`${listId}-${c.code}`}
            role="option"
            aria-selected={c.code === code}
            className={i === active ? 'country-select-option is-active' : 'country-select-option'}
            // mousedown, not click: it comes before the input's blur.
            onMouseDown={(ev) => {
              ev.preventDefault();
              choose(c);
            }}
          >
            {countryName(c, lang)}
            {lang !== 'en' && <span className="country-select-en" lang="en"> {c.en}</span>}
          </li>
        ))}
        {open && shown.length === 0 && (
          <li className="country-select-empty" role="option" aria-disabled="true" aria-selected={false}>
            {t('islands.country.noResults')}
          </li>
        )}
      </ul>
      <span className="visually-hidden" role="status" aria-live="polite">
        {open && text ? t('islands.country.results', { count: matches.length }) : ''}
      </span>
    </div>
  );
}
