import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface DropdownItem {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
}

interface DropdownProps {
  label: ReactNode;
  /** accessible name when the label is not text */
  ariaLabel?: string;
  items: DropdownItem[];
  className?: string;
  disabled?: boolean;
  align?: 'left' | 'right';
}

/** A menu button: arrows move between items, Escape closes and returns focus to the button. */
export function Dropdown({ label, ariaLabel, items, className, disabled, align = 'left' }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus();
    const onOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onOutside);
    return () => document.removeEventListener('mousedown', onOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKeyDown = (event: React.KeyboardEvent) => {
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = entries.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      entries[(index + 1) % entries.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      entries[(index - 1 + entries.length) % entries.length]?.focus();
    } else if (event.key === 'Home') {
      entries[0]?.focus();
    } else if (event.key === 'End') {
      entries[entries.length - 1]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={root} className={`dropdown ${className ?? ''}`}>
      <button
        ref={button}
        type="button"
        className="button button--secondary dropdown__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          className={`dropdown__menu dropdown__menu--${align}`}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <li
              key={item.key}
              role="menuitem"
              tabIndex={-1}
              aria-disabled={item.disabled || undefined}
              className="dropdown__item"
              onClick={() => {
                if (item.disabled) return;
                setOpen(false);
                item.onSelect();
              }}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && !item.disabled) {
                  e.preventDefault();
                  setOpen(false);
                  item.onSelect();
                }
              }}
            >
              {item.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
