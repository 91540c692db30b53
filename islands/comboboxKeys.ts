import type { KeyboardEvent } from 'react';

// The keys an ARIA combobox's input handles over its listbox: arrows move the
// active option (opening the list), Enter chooses it, Escape closes.
export interface ComboboxKeys<T> {
  open: boolean;
  active: number;
  options: T[];
  setOpen: (open: boolean) => void;
  setActive: (f: (i: number) => number) => void;
  choose: (option: T) => void;
}

export function comboboxKeyDown<T>(ev: KeyboardEvent<HTMLInputElement>, c: ComboboxKeys<T>): void {
  switch (ev.key) {
    case 'ArrowDown':
      ev.preventDefault();
      c.setOpen(true);
      c.setActive((i) => Math.min(i + 1, c.options.length - 1));
      break;
    case 'ArrowUp':
      ev.preventDefault();
      c.setOpen(true);
      c.setActive((i) => Math.max(i - 1, 0));
      break;
    case 'Enter':
      if (c.open && c.active >= 0 && c.options[c.active]) {
        ev.preventDefault();
        c.choose(c.options[c.active]);
      }
      break;
    case 'Escape':
      if (c.open) {
        ev.preventDefault();
        c.setOpen(false);
        c.setActive(() => -1);
      }
      break;
  }
}
