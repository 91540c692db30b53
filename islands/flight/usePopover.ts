// usePopover is the state of a button's popover (the passengers, a price
// breakdown): a mouse-down outside root closes it, and so does Escape
// inside root, handing the focus back to the button as close does.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export function usePopover() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (ev: MouseEvent) => {
      if (root.current && !root.current.contains(ev.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  return {
    open,
    root,
    button,
    close,
    toggle: () => setOpen((o) => !o),
    onKeyDown: (ev: KeyboardEvent) => {
      if (ev.key === 'Escape' && open) {
        ev.preventDefault();
        close();
      }
    },
  };
}
